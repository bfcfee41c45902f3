// The turn inspector: one turn's record as its owner or an admin of its organization sees it.
// Read only, from the durable record: the turn row (state, usage, attempts, the timeline its runs
// wrote), its answer's tool parts, the approval decisions, and the post-turn events with their
// job runs. An admin's payload carries no content at all (see ./types.ts).
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { executePrepared, getDb } from "@/db/client";
import { fromJson } from "@/db/json";
import { turns, workstreams } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";
import { unknownModelNotice } from "@/lib/models/catalogue";
import type { Attempt } from "@/lib/models/resilient-model";
import type { TokenUsage } from "@/lib/models/usage";
import type { RunRecord } from "@/lib/turns/trace";
import type {
  InspectedApproval,
  InspectedAttempt,
  InspectedJob,
  InspectedSpecialist,
  InspectedTool,
  ToolStatus,
  TurnInspection,
} from "./types";

/** Who is looking: the workstream's owner (with content), or an admin of its organization. */
export type InspectorViewer =
  | { kind: "owner"; organizationId: string; userId: string }
  | { kind: "admin"; organizationId: string };

/** The specialist tool, and the data part its consultations leave in the answer. */
const SPECIALIST_TOOL = "consult_specialist";
const SPECIALIST_PART = "data-specialist";

export async function inspectTurn({
  viewer,
  workstreamId,
  turnId,
}: {
  viewer: InspectorViewer;
  workstreamId: string;
  turnId: string;
}): Promise<TurnInspection> {
  const db = await getDb();
  const owned = viewer.kind === "owner" ? eq(workstreams.ownerId, viewer.userId) : sql`true`;
  const [found] = await db
    .select({ turn: turns })
    .from(workstreams)
    .leftJoin(turns, and(eq(turns.id, turnId), eq(turns.workstreamId, workstreams.id)))
    .where(
      and(
        eq(workstreams.id, workstreamId),
        eq(workstreams.organizationId, viewer.organizationId),
        owned,
      ),
    )
    .limit(1);
  if (!found) throw new AppError("not_found:workstream");
  const turn = found.turn;
  if (!turn) throw new AppError("not_found:turn");
  const content = viewer.kind === "owner";
  const ownerId = viewer.kind === "owner" ? viewer.userId : null;

  // Everything else in one statement: the answer's parts, the decisions and approvals about its
  // tool calls, and its post-turn events with their job runs and failures.
  const [rest] = await executePrepared<RestRow>(sql`
    select
      (select m."parts" from "messages" m
        where m."workstream_id" = ${workstreamId} and m."id" = ${turn.assistantMessageId}) as "parts",
      (select coalesce(json_agg(json_build_object('toolCallId', d."tool_call_id",
          'decision', d."decision", 'source', d."source", 'reason', d."reason",
          'decidedAt', d."decided_at") order by d."decided_at" desc), '[]'::json)
        from "approval_decisions" d
        where d."workstream_id" = ${workstreamId} and d."turn_id" = ${turnId}) as "decisions",
      (select coalesce(json_agg(json_build_object('toolCallId', a."tool_call_id",
          'state', a."state", 'reason', a."reason", 'decidedAt', a."decided_at")), '[]'::json)
        from "approvals" a where a."turn_id" = ${turnId}) as "asked",
      (select coalesce(json_agg(json_build_object('id', e."id", 'name', e."name",
          'createdAt', e."created_at", 'dispatched', e."dispatched_at" is not null,
          'attempts', e."attempts",
          'runs', (select coalesce(json_agg(json_build_object('functionId', j."function_id",
              'state', j."state", 'attempts', j."attempts", 'finishedAt', j."finished_at")
              order by j."created_at"), '[]'::json)
            from "jobs" j where j."event_id" = e."id"),
          'failures', (select coalesce(json_agg(json_build_object('functionId', f."function_id",
              'errorCode', f."error_code", 'errorMessage', f."error_message",
              'providerDetail', f."provider_detail", 'memberIds', f."member_ids",
              'attempts', f."attempts", 'failedAt', f."failed_at")
              order by f."failed_at"), '[]'::json)
            from "failed_jobs" f where f."event_id" = e."id"))
          order by e."created_at"), '[]'::json)
        from "job_events" e where (e."data" ->> 'turnId') = ${turnId}) as "events"`);
  const decisions = rest ? fromJson(rest.decisions) : [];
  const asked = rest ? fromJson(rest.asked) : [];
  const events = rest ? fromJson(rest.events) : [];
  const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

  const timeline = (Array.isArray(turn.timeline) ? turn.timeline : []) as RunRecord[];
  const toolStages = new Map(
    timeline.flatMap((run) =>
      run.stages.flatMap((stage) =>
        stage.stage === "TOOL_CALL" && stage.toolCallId ? [[stage.toolCallId, stage.ms]] : [],
      ),
    ),
  );
  const approvalOf = (toolCallId: string): InspectedApproval | null => {
    // Newest first: the decision that stands.
    const decided = decisions.find((row) => row.toolCallId === toolCallId);
    if (decided) {
      return {
        decision: decided.decision,
        source: decided.source,
        decidedAt: iso(decided.decidedAt),
        ...(content ? { reason: decided.reason } : {}),
      };
    }
    const pending = asked.find((row) => row.toolCallId === toolCallId);
    if (!pending) return null;
    return {
      decision: pending.state,
      source: pending.state === "expired" ? "timeout" : null,
      decidedAt: iso(pending.decidedAt),
      ...(content ? { reason: pending.reason } : {}),
    };
  };
  const answer = rest ? fromJson(rest.parts) : null;
  const parts = Array.isArray(answer) ? answer : [];
  const tools = toolParts(parts).map((part): InspectedTool => {
    const toolCallId = String(part.toolCallId ?? "");
    return {
      toolCallId,
      toolName: toolNameOf(part),
      status: toolStatus(part.state),
      ms: toolStages.get(toolCallId) ?? null,
      approval: approvalOf(toolCallId),
      ...(content
        ? { input: part.input ?? null, output: part.output ?? part.errorText ?? null }
        : {}),
    };
  });

  const usage = (turn.usage as TokenUsage | null) ?? null;
  return {
    content,
    turn: {
      id: turn.id,
      workstreamId: turn.workstreamId,
      state: turn.state,
      reason: turn.reason,
      errorCode: turn.errorCode,
      agentId: turn.agentId,
      model: turn.model,
      modelNotice: turn.model ? unknownModelNotice(turn.model) : null,
      createdAt: turn.createdAt.toISOString(),
      startedAt: turn.startedAt?.toISOString() ?? null,
      endedAt: turn.endedAt?.toISOString() ?? null,
      durationMs: turn.endedAt ? turn.endedAt.getTime() - turn.createdAt.getTime() : null,
      events:
        turn.firstOffset !== null && turn.lastOffset !== null
          ? turn.lastOffset - turn.firstOffset + 1
          : null,
    },
    usage: usage
      ? {
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          ...(usage.reasoningTokens !== undefined
            ? { reasoningTokens: usage.reasoningTokens }
            : {}),
          ...(usage.cachedInputTokens !== undefined
            ? { cachedInputTokens: usage.cachedInputTokens }
            : {}),
        }
      : null,
    costUsd: turn.costUsd,
    runs: timeline.map((run) => ({
      startedAt: run.startedAt,
      ms: run.ms,
      state: run.state,
      stages: run.stages.map(({ stage, at, ms, outcome, toolName, toolCallId }) => ({
        stage,
        at,
        ms,
        outcome,
        ...(toolName ? { toolName } : {}),
        ...(toolCallId ? { toolCallId } : {}),
      })),
      steps: run.steps.map(({ modelId, finishReason, usage: stepUsage, costUsd }) => ({
        ...(modelId ? { modelId } : {}),
        finishReason,
        usage: stepUsage,
        costUsd,
      })),
    })),
    attempts: inspectAttempts((turn.attempts as Attempt[] | null) ?? []),
    tools: tools.filter((tool) => tool.toolName !== SPECIALIST_TOOL),
    specialists: specialists(parts, tools, content),
    jobs: events.map(
      (event): InspectedJob => ({
        eventId: event.id,
        name: event.name,
        createdAt: iso(event.createdAt) ?? "",
        dispatched: event.dispatched,
        dispatchAttempts: event.attempts,
        runs: event.runs.map((run) => ({ ...run, finishedAt: iso(run.finishedAt) })),
        failures: event.failures.map(({ providerDetail, memberIds, ...failure }) => ({
          ...failure,
          failedAt: iso(failure.failedAt) ?? "",
          // The provider's own words may quote the request: only the owner sees them, and only
          // when the job covered no one else's turns.
          ...(content && providerDetail && (memberIds ?? []).every((id) => id === ownerId)
            ? { providerDetail }
            : {}),
        })),
      }),
    ),
  };
}

type DecisionRow = {
  toolCallId: string;
  decision: "approved" | "denied";
  source: string;
  reason: string | null;
  decidedAt: string;
};
type AskedRow = {
  toolCallId: string;
  state: InspectedApproval["decision"];
  reason: string | null;
  decidedAt: string | null;
};
type EventRow = {
  id: string;
  name: string;
  createdAt: string;
  dispatched: boolean;
  attempts: number;
  runs: Array<{ functionId: string; state: string; attempts: number; finishedAt: string | null }>;
  failures: Array<{
    functionId: string;
    errorCode: string;
    errorMessage: string;
    providerDetail: string | null;
    memberIds: string[] | null;
    attempts: number;
    failedAt: string;
  }>;
};
type RestRow = {
  parts: PartLike[] | string | null;
  decisions: DecisionRow[] | string;
  asked: AskedRow[] | string;
  events: EventRow[] | string;
};

type PartLike = {
  type: string;
  id?: unknown;
  toolCallId?: string;
  toolName?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  data?: unknown;
};

function toolParts(parts: PartLike[]): PartLike[] {
  return parts.filter((part) => part.type === "dynamic-tool" || part.type.startsWith("tool-"));
}

function toolNameOf(part: PartLike): string {
  return part.type === "dynamic-tool" ? String(part.toolName) : part.type.slice("tool-".length);
}

function toolStatus(state: string | undefined): ToolStatus {
  switch (state) {
    case "output-available":
      return "ok";
    case "output-error":
      return "error";
    case "output-denied":
      return "denied";
    case "approval-requested":
      return "awaiting approval";
    case "approval-responded":
    case "input-available":
      return "running";
    default:
      return "not run";
  }
}

/**
 * Retries and fallbacks: each model request numbers its calls from 1; a call after the first is
 * a retry, and a call to another model than the request's first is the fallback.
 */
function inspectAttempts(attempts: Attempt[]): InspectedAttempt[] {
  let primary = attempts[0]?.modelId ?? "";
  return attempts.map((attempt) => {
    if (attempt.attempt === 1) primary = attempt.modelId;
    return {
      modelId: attempt.modelId,
      attempt: attempt.attempt,
      outcome: attempt.outcome,
      ...(attempt.error ? { error: attempt.error } : {}),
      ...(attempt.providerStatus ? { providerStatus: attempt.providerStatus } : {}),
      startedAt: attempt.startedAt,
      ms: attempt.ms,
      firstTokenMs: attempt.firstTokenMs ?? null,
      durationMs: attempt.durationMs ?? null,
      retry: attempt.attempt > 1,
      fallback: attempt.modelId !== primary,
    };
  });
}

/**
 * The specialist consultations: each `consult_specialist` call, with what its `data-specialist`
 * parts say (which specialist, how it went). Tolerant of a record without them.
 */
function specialists(
  parts: PartLike[],
  tools: InspectedTool[],
  content: boolean,
): InspectedSpecialist[] {
  // A consultation's part has the id of the tool call that made it.
  const data = parts
    .filter((part) => part.type === SPECIALIST_PART)
    .map((part) => ({
      id: typeof part.id === "string" ? part.id : null,
      data: (part.data && typeof part.data === "object" ? part.data : {}) as SpecialistData,
    }));
  const calls = tools.filter((tool) => tool.toolName === SPECIALIST_TOOL);
  const used = new Set<string | null>();
  const consulted = calls.map((call): InspectedSpecialist => {
    const about = data.find((entry) => entry.id === call.toolCallId);
    if (about) used.add(about.id);
    const input = toolPart(parts, call.toolCallId)?.input as SpecialistData | undefined;
    return describeSpecialist(
      call.toolCallId,
      about?.data ?? input ?? {},
      call.status,
      call.ms,
      content,
    );
  });
  const loose = data
    .filter((entry) => entry.id === null || !used.has(entry.id))
    .map((entry) => describeSpecialist(entry.id, entry.data, null, null, content));
  return [...consulted, ...loose];
}

type SpecialistData = Record<string, unknown>;

function toolPart(parts: PartLike[], toolCallId: string): PartLike | undefined {
  return parts.find((part) => part.toolCallId === toolCallId);
}

function describeSpecialist(
  toolCallId: string | null,
  data: SpecialistData,
  status: string | null,
  ms: number | null,
  content: boolean,
): InspectedSpecialist {
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    toolCallId,
    specialist:
      text(data.name) ?? text(data.agentId) ?? text(data.specialistId) ?? text(data.specialist),
    status: text(data.status) ?? text(data.state) ?? status,
    steps: typeof data.steps === "number" ? data.steps : null,
    ms,
    ...(content
      ? {
          question: text(data.question) ?? text(data.task),
          answer: text(data.answer) ?? text(data.text),
        }
      : {}),
  };
}
