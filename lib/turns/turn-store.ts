// The turns table: opening a turn (with the user message and the busy flag, in one statement),
// reading open turns, and ending a turn together with its last events.
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { executePrepared, getDb } from "@/db/client";
import { type TurnState, turns } from "@/db/schema";
import type { ToolPolicy } from "@/lib/agents/authority";
import { firstPendingApproval } from "@/lib/approvals/store";
import { type Caller, callerOf, callerSql, type Viewer, type ViewerRow } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { fileIdsOf } from "@/lib/files/attach";
import { type AttachedFile, openingFilesSql } from "@/lib/files/records";
import type { JobEvent } from "@/lib/jobs/define";
import { AppError, type ErrorCode } from "@/lib/kernel/errors";
import { PROCESS_ID } from "@/lib/kernel/process-id";
import {
  anyVectorsSql,
  fullTextMemoriesSql,
  type MemoryReader,
  memorySearch,
  type RetrievedMemory,
  statisticsHeld,
  topMemoriesSql,
  wordStatisticsVersionSql,
} from "@/lib/memory/retrieve";
import type { Attempt } from "@/lib/models/resilient-model";
import type { TokenUsage } from "@/lib/models/usage";
import { type OfferedSkill, offeredSkillsSql } from "@/lib/skills/store";
import {
  type ContextRecord,
  emptyState,
  executionPlanSchema,
  type MemoryBlockEntry,
  workstreamStateSchema,
} from "@/lib/state/schema";
import { announceSql, insertEventsSql, TurnLog } from "@/lib/stream/event-log";
import { getFanout } from "@/lib/stream/fanout-instance";
import type { LoggedChunk, LoggedEvent } from "@/lib/stream/types";
import { toStorableJson } from "@/lib/text/storable";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import type { SummaryRow } from "@/lib/workstreams/summary";
import {
  type HistoryMessage,
  historyReadCap,
  type KeptContext,
  MESSAGE_OVERHEAD_TOKENS,
} from "./context-window";
import { type HistoryCheck, type HistoryRead, heldHistory, historyFromRead } from "./history-cache";
import { countTokens, type WorkstreamMessage } from "./messages";
import { rateLimitSettings } from "./rate-limit";
import type { RunRecord } from "./trace";
import {
  isOpenSql,
  OPEN_STATES,
  OPEN_STATES_LIST,
  RUNNING_STATES,
  RUNNING_STATES_LIST,
} from "./turn-state";

export type TurnRow = typeof turns.$inferSelect;
export { OPEN_STATES, RUNNING_STATES };

export async function getOpenTurn({
  workstreamId,
}: {
  workstreamId: string;
}): Promise<TurnRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(turns)
    .where(and(eq(turns.workstreamId, workstreamId), isOpenSql(turns.state)))
    .limit(1);
  return row ?? null;
}

export async function getTurn({ turnId }: { turnId: string }): Promise<TurnRow | null> {
  const db = await getDb();
  const [row] = await db.select().from(turns).where(eq(turns.id, turnId)).limit(1);
  return row ?? null;
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === "23505";
}

async function turnActiveError(workstreamId: string): Promise<AppError> {
  const open = await getOpenTurn({ workstreamId });
  // A turn waiting for the owner names what it waits for: the approval to answer.
  const waiting = open?.state === "suspended" ? await firstPendingApproval(open.id) : null;
  return new AppError("conflict:turn_active", {
    details: {
      turnId: open?.id ?? null,
      state: open?.state ?? null,
      ...(waiting ? { approvalId: waiting.id, toolName: waiting.toolName } : {}),
    },
  });
}

/** What a turn starts from, as the opening statement read it. */
export type OpeningRead = {
  workstream: WorkstreamRow;
  /** A message with the posted id already exists: its role and its turn's state. */
  existing: { role: string; turnId: string | null; turnState: TurnState | null } | null;
  lastOffset: number;
  /**
   * The messages since the last compaction, oldest first, with their token counts: the newest
   * that fit the largest window any model has (the builder trims to the turn's own model).
   */
  history: HistoryMessage[];
  /** Older messages since the last compaction that did not fit. */
  historyLeftOut: number;
  kept: KeptContext;
  /**
   * The member's pre-seeded memories, and the memories whose words match the new message (the
   * full-text side of retrieval), both visible to the member with the workstream's agent; the
   * full-text matches are null when the words' statistics changed as they were read.
   */
  memories: { top: RetrievedMemory[]; fullText: RetrievedMemory[] | null; anyVectors: boolean };
  /** The skills offered to the member's agents: their own and the organization's, by name. */
  skills: OfferedSkill[];
  /** The workstream's files the history may name (its attachments are signed from these). */
  files: AttachedFile[];
};

export type TurnOpening = {
  turnId: string;
  workstreamId: string;
  /**
   * Who the turn is for: a viewer checked before, or a session the opening statement checks
   * itself (one round trip less), refused as `requireViewer` refuses.
   */
  caller: Caller;
  serverRunId: string;
  assistantMessageId: string;
  /** The id of the posted message: a message with it may exist already (a retry). */
  messageId: string;
};

/** The workstream is compacting: the caller waits and tries again, or goes ahead regardless. */
export class WorkstreamCompacting extends Error {}

/**
 * Opens a turn in one statement, so nothing else waits on a transaction of its own. It reads the
 * owned workstream, a message posted before with the same id, the log's last offset and (once
 * the turn is open) the history; it counts the request against the user's rate limit (a row
 * lock orders concurrent openers on every server); compare-and-sets the busy flag (a flag left
 * by a run that is no longer running counts as free); and inserts the turn, the user message and
 * the turn's first events. Each refusal writes nothing and is told apart afterwards: not found,
 * archived, compacting, a duplicate message, rate limited, busy. A concurrent opener that
 * slipped past the flag is stopped by the one-open-turn index. A compaction whose lease lapsed
 * (its process died) does not count; with `proceedWhileCompacting` a live one does not either:
 * the turn then goes ahead on the history as it stands. With a session to check, the statement reads
 * it first (`viewerSql`) and reads the workstream only as its member's: every write hangs on that
 * read, so a refused caller writes nothing, and is refused before anything else is told apart.
 */
export async function openTurn(
  input: TurnOpening & {
    message: WorkstreamMessage;
    first: LoggedChunk[];
    proceedWhileCompacting?: boolean;
  },
): Promise<{
  /** Who the turn was opened for: the caller's viewer, or the one the statement checked. */
  viewer: Viewer;
  turn: TurnRow;
  read: OpeningRead;
  /** The turn's log, numbered on from its first events. */
  log: TurnLog;
  events: LoggedEvent[];
  /** Other servers were told of `events` by the opening statement itself. */
  announced: boolean;
}> {
  const limit = rateLimitSettings();
  const { message } = input;
  const stored = { ...message, metadata: { ...message.metadata, turnId: input.turnId } };
  const turnRef = { id: input.turnId, workstreamId: input.workstreamId };
  // Numbered from 1 here; the statement adds the log's last offset, which only it knows.
  const relative = TurnLog.after(turnRef, 0).reserve(input.first);
  const announcement = (await getFanout()).announcement(relative);
  const window = `${limit.windowMs} milliseconds`;
  const newTokens = countTokens(stored.parts);
  // The most history any model's window could take; the builder trims to the turn's own model.
  const readCap = historyReadCap();
  const held = heldHistory(input.workstreamId);
  const allowedTurns = limit.turns > 0 ? limit.turns : null;
  const opened = sql`exists (select 1 from opened)`;
  // The workstream is read only as the caller's own, so its owner is the caller from there on.
  const reader: MemoryReader = {
    organizationId: sql`ws."organization_id"`,
    userId: sql`ws."owner_id"`,
    agentId: sql`ws."agent_id"`,
  };
  const caller = callerSql(input.caller);
  const search = await memorySearch(
    stored.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n"),
  );
  const _db = await getDb();
  let row: OpeningRow | undefined;
  try {
    [row] = await executePrepared<OpeningRow>(sql`
        with ${caller.cte} ws as (
          select w.*,
            (select json_build_object('role', m."role", 'turnId', m."turn_id", 'turnState', t."state")
              from "messages" m left join "turns" t on t."id" = m."turn_id"
              where m."workstream_id" = w."id" and m."id" = ${message.id}) as existing,
            (select coalesce(max(e."offset"), 0) from "turn_events" e
              where e."workstream_id" = w."id") as last_offset,
            w."is_compacting" and coalesce(w."compaction_lease_expires_at" > now(), false)
              as compacting_now,
            (select jsonb_object_agg(p."tool_name", p."rule") from "tool_policies" p
              where p."organization_id" = w."organization_id") as tool_policy
          from "workstreams" w
          where w."id" = ${input.workstreamId} and w."organization_id" = ${caller.organizationId}
            and w."owner_id" = ${caller.userId}
        ), ready as (
          select "id", "owner_id" from ws
          where "status" <> 'archived'
            and (not compacting_now or ${input.proceedWhileCompacting ?? false}::boolean)
            and (existing is null or (
            existing->>'role' = 'user' and existing->>'turnState' in ('failed', 'cancelled')))
        ), bumped as (
          insert into "turn_rate_limits" ("user_id", "window_start", "turns")
          select "owner_id", now(), 1 from ready where ${allowedTurns}::int is not null
          on conflict ("user_id") do update set
            "turns" = case when "turn_rate_limits"."window_start" <= now() - ${window}::interval
              then 1 else "turn_rate_limits"."turns" + 1 end,
            "window_start" = case when "turn_rate_limits"."window_start" <= now() - ${window}::interval
              then now() else "turn_rate_limits"."window_start" end
          returning "turns", "window_start"
        ), allowed as (
          select ${allowedTurns}::int is null
            or coalesce((select "turns" from bumped), 0) <= ${allowedTurns} as ok
        ), claimed as (
          update "workstreams" set "active_run_id" = ${input.serverRunId}
          where "id" in (select "id" from ready) and (select ok from allowed) and (
            "active_run_id" is null or not exists (
              select 1 from "turns" as running
              where running."server_run_id" = "workstreams"."active_run_id"
                and running."state" in (${RUNNING_STATES_LIST}) and running."id" <> ${input.turnId}))
          returning "id"
        ), opened as (
          insert into "turns" ("id", "workstream_id", "organization_id", "user_id",
            "user_message_id", "assistant_message_id", "agent_id", "state",
            "server_run_id", "owner_id", "lease_expires_at", "first_offset")
          select ${input.turnId}, ws."id", ws."organization_id", ws."owner_id",
            ${message.id}, ${input.assistantMessageId}, ws."agent_id", 'pending',
            ${input.serverRunId}, ${PROCESS_ID}, now() + ${`${config.turns.leaseMs} milliseconds`}::interval,
            ws.last_offset + 1
          from ws join claimed on claimed."id" = ws."id"
          returning "id"
        ), asked as (
          insert into "messages" ("workstream_id", "id", "role", "parts", "metadata", "token_count", "turn_id")
          select ${input.workstreamId}, ${message.id}, 'user', ${JSON.stringify(stored.parts)}::jsonb,
            ${JSON.stringify(stored.metadata ?? {})}::jsonb, ${newTokens}, ${input.turnId}
          from opened
          on conflict do nothing
        ), logged as (
          ${insertEventsSql(relative, opened, sql`(select last_offset from ws)`)}
        )
        select ${caller.row} as caller, to_json(ws) as workstream, (select ok from allowed) as allowed,
          (select "window_start" from bumped) as window_start,
          (select count(*) from opened)::int as opened,
          case when ${opened} then ${historySql(held.check, readCap)} end as history,
          case when ${opened} then (
            select json_build_object('state', s."state", 'plan', s."plan",
              'memorySummary', s."memory_summary")
            from "workstream_states" s where s."workstream_id" = ws."id")
          end as kept,
          case when ${opened} then (
            select json_agg(json_build_object('id', e."id", 'role', e."role", 'text', e."text",
              'createdAt', e."created_at") order by e."created_at", e."id")
            from "memory_block_entries" e where e."workstream_id" = ws."id")
          end as memory_entries,
          case when ${opened} then ${topMemoriesSql(reader)} end as top_memories,
          case when ${opened} then ${fullTextMemoriesSql(reader, search)} end as found_memories,
          case when ${opened} then ${wordStatisticsVersionSql()} end as word_statistics,
          case when ${opened} then ${anyVectorsSql(reader)} end as any_vectors,
          case when ${opened} then ${offeredSkillsSql(reader)} end as offered_skills,
          case when ${opened} then ${openingFilesSql(sql`ws."id"`, fileIdsOf(stored.parts))} end as attached_files,
          ${announceSql(announcement, opened)} as announced
        from (select 1) as one left join ws on true`);
  } catch (error) {
    // Only a write can collide, and nothing is written for a caller the statement refused.
    if (isUniqueViolation(error)) throw await turnActiveError(input.workstreamId);
    throw error;
  }
  const viewer = await callerOf(input.caller, row?.caller ?? null);
  const found = row?.workstream ? parseJson(row.workstream) : null;
  if (!row || !found) throw new AppError("not_found:workstream");
  const workstream = workstreamFromJson(found);
  if (workstream.status === "archived") throw new AppError("conflict:archived");
  if (found.compacting_now && !input.proceedWhileCompacting) throw new WorkstreamCompacting();
  const existing = found.existing ?? null;
  checkRetry(existing);
  if (!row.allowed) throw rateLimited(row.window_start, limit.windowMs);
  // Not found free: another run holds the workstream.
  if (!row.opened) throw await turnActiveError(input.workstreamId);
  const lastOffset = Number(found.last_offset);
  const log = TurnLog.after(turnRef, lastOffset);
  const events = log.reserve(input.first);
  const turn: TurnRow = {
    ...EMPTY_TURN,
    id: input.turnId,
    workstreamId: input.workstreamId,
    organizationId: viewer.organizationId,
    userId: viewer.userId,
    userMessageId: message.id,
    assistantMessageId: input.assistantMessageId,
    agentId: workstream.agentId,
    state: "pending",
    serverRunId: input.serverRunId,
    ownerId: PROCESS_ID,
    firstOffset: lastOffset + 1,
  };
  const { history, leftOut } = historyFromRead(
    input.workstreamId,
    parseJson(row.history) ?? { delta: false, anchor: 0, rows: [], older: 0 },
    held,
    { cap: Math.max(0, readCap - newTokens), readCap },
  );
  // A retried message is in the history already; a new one joins it at the end.
  if (!existing) history.push({ message: stored, tokens: newTokens });
  return {
    viewer,
    turn,
    read: {
      workstream,
      existing,
      lastOffset,
      history,
      historyLeftOut: leftOut,
      kept: {
        ...keptContext(parseJson(row.kept), parseJson(row.memory_entries)),
        // The organization's tool policy, read with the workstream: no statement of its own.
        toolPolicy: found.tool_policy ?? {},
      },
      memories: {
        top: memoryList(parseJson(row.top_memories)),
        // Read with statistics that changed since: the retrieval reads them again.
        fullText: statisticsHeld(search, row.word_statistics)
          ? memoryList(parseJson(row.found_memories))
          : null,
        anyVectors: Boolean(row.any_vectors),
      },
      skills: parseJson(row.offered_skills) ?? [],
      files: parseJson(row.attached_files) ?? [],
    },
    log,
    events,
    announced: announcement !== null,
  };
}

type WorkstreamJson = {
  id: string;
  organization_id: string;
  owner_id: string | null;
  mode: WorkstreamRow["mode"];
  core: boolean;
  core_type: string | null;
  agent_id: string;
  title: string;
  status: WorkstreamRow["status"];
  active_run_id: string | null;
  is_compacting: boolean;
  compaction_token: string | null;
  compaction_lease_expires_at: string | null;
  compaction_summary: string | null;
  last_compacted_message_id: string | null;
  unread_since: string | null;
  security_mode: WorkstreamRow["securityMode"];
  tool_allowlist: string[] | null;
  tool_policy: ToolPolicy | null;
  created_at: string;
  updated_at: string;
  existing: OpeningRead["existing"];
  last_offset: number | string;
  /** Compacting under a lease that has not lapsed. */
  compacting_now: boolean;
};

type OpeningRow = {
  /** The session the statement checked (null when the caller came checked). */
  caller: ViewerRow | string | null;
  workstream: WorkstreamJson | string | null;
  allowed: boolean | null;
  window_start: Date | string | null;
  opened: number;
  history: HistoryRead | string | null;
  kept: KeptRow | string | null;
  memory_entries: MemoryBlockEntry[] | string | null;
  top_memories: RetrievedMemory[] | string | null;
  found_memories: RetrievedMemory[] | string | null;
  word_statistics: string | null;
  any_vectors: boolean | null;
  offered_skills: OfferedSkill[] | string | null;
  attached_files: AttachedFile[] | string | null;
};

/**
 * The opening's history (see ./history-cache): only the messages after the held ones when the
 * held ones are confirmed unchanged, otherwise the newest messages since the compaction point
 * that fit the largest window any model has, with how many older ones did not.
 */
function historySql(check: HistoryCheck, readCap: number) {
  const limit = config.context.maxHistoryMessages;
  const row = (m: string) =>
    sql.raw(`json_build_object('id', ${m}."id", 'role', ${m}."role", 'parts', ${m}."parts",
      'metadata', ${m}."metadata", 'tokens', ${m}."token_count", 'seq', ${m}."seq", 'v', ${m}.v)`);
  const columns = sql`m."id", m."role", m."parts", m."metadata", m."token_count", m."seq",
    m.xmin::text::bigint as v`;
  return sql`(
    select case when c.held then json_build_object('delta', true, 'anchor', c.anchor,
        'older', (select count(*) from (select 1 from "messages" o
          where o."workstream_id" = ws."id" and o."seq" > c.anchor
            and o."seq" < ${check.first}::bigint limit ${limit}) o),
        'rows', (select coalesce(json_agg(${row("n")} order by n."seq"), '[]'::json)
          from (select ${columns} from "messages" m
            where m."workstream_id" = ws."id" and m."seq" > ${check.last}::bigint
            order by m."seq" desc limit ${limit}) n))
      else (
        select json_build_object('delta', false, 'anchor', c.anchor,
          'rows', coalesce(json_agg(${row("h")} order by h."seq")
            filter (where h.running <= ${readCap} or h.newest), '[]'::json),
          'older', count(*) filter (where not (h.running <= ${readCap} or h.newest)))
        from (
          select r.*, r."seq" = max(r."seq") over () as newest,
            sum(r."token_count" + ${MESSAGE_OVERHEAD_TOKENS}) over (order by r."seq" desc) as running
          from (
            select ${columns} from "messages" m
            where m."workstream_id" = ws."id" and m."seq" > c.anchor
            order by m."seq" desc limit ${limit}
          ) r
        ) h)
      end
    from (
      select a.anchor, a.anchor = ${check.anchor}::bigint and coalesce((
          select count(*) = ${check.count}::bigint
            and sum(x.xmin::text::bigint) = ${check.versions}::numeric
          from "messages" x where x."workstream_id" = ws."id"
            and x."seq" between ${check.first}::bigint and ${check.last}::bigint), false) as held
      from (select coalesce((select p."seq" from "messages" p
          where p."workstream_id" = ws."id" and p."id" = ws."last_compacted_message_id"), 0)
        as anchor) a
    ) c)`;
}

function memoryList(list: RetrievedMemory[] | null): RetrievedMemory[] {
  return (list ?? []).map((memory) => ({ ...memory, importance: Number(memory.importance) }));
}

export type KeptRow = { state: unknown; plan: unknown; memorySummary: string | null };

/** The stored state, plan and memory block, as the context builder takes them. */
export function keptContext(row: KeptRow | null, entries: MemoryBlockEntry[] | null): KeptContext {
  const state = workstreamStateSchema.safeParse(row?.state ?? {});
  const plan = row?.plan ? executionPlanSchema.safeParse(row.plan) : null;
  return {
    state: state.success ? state.data : emptyState(),
    plan: plan?.success ? plan.data : null,
    memorySummary: row?.memorySummary ?? null,
    memoryEntries: entries ?? [],
  };
}

function workstreamFromJson(row: WorkstreamJson): WorkstreamRow {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ownerId: row.owner_id,
    mode: row.mode,
    core: row.core,
    coreType: row.core_type,
    agentId: row.agent_id,
    title: row.title,
    status: row.status,
    activeRunId: row.active_run_id,
    isCompacting: row.is_compacting,
    compactionToken: row.compaction_token,
    compactionLeaseExpiresAt: row.compaction_lease_expires_at
      ? new Date(row.compaction_lease_expires_at)
      : null,
    compactionSummary: row.compaction_summary,
    lastCompactedMessageId: row.last_compacted_message_id,
    unreadSince: row.unread_since ? new Date(row.unread_since) : null,
    securityMode: row.security_mode,
    toolAllowlist: row.tool_allowlist ?? [],
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** A re-POST of a message is Retry only when its turn failed or was cancelled. */
function checkRetry(existing: OpeningRead["existing"]): void {
  if (!existing) return;
  if (existing.role !== "user") throw new AppError("conflict:message_id");
  if (existing.turnState === "failed" || existing.turnState === "cancelled") return;
  throw new AppError("conflict:duplicate_message", {
    details: { turnId: existing.turnId ?? null },
  });
}

const EMPTY_TURN: TurnRow = {
  id: "",
  workstreamId: "",
  organizationId: "",
  userId: null,
  userMessageId: "",
  assistantMessageId: "",
  state: "pending",
  reason: null,
  errorCode: null,
  serverRunId: null,
  ownerId: null,
  leaseExpiresAt: null,
  stopRequestedAt: null,
  firstOffset: null,
  resumedOffset: null,
  lastOffset: null,
  agentId: null,
  model: null,
  usage: null,
  costUsd: null,
  attempts: [],
  timeline: null,
  context: null,
  createdAt: new Date(0),
  startedAt: null,
  endedAt: null,
  updatedAt: new Date(0),
};

/** json columns come parsed from both drivers, but a driver may hand back text; accept both. */
function parseJson<T>(value: T | string | null): T | null {
  if (value === null) return null;
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

function rateLimited(windowStart: Date | string | null, windowMs: number): AppError {
  const since = windowStart ? new Date(windowStart).getTime() : Date.now();
  const retryAfter = Math.max(1, Math.ceil((since + windowMs - Date.now()) / 1000));
  return new AppError("rate_limit:turn", { details: { retryAfter } });
}

/**
 * The turn's post-turn event (the outbox row the closing statement writes): its id, name, and
 * the two flags background functions filter on.
 */
export type PostTurnEvent = {
  id: string;
  name: string;
  completed: boolean;
  compact: boolean;
  /** Whether the turn's messages lay out a procedure (a skill job has work to do). */
  skills: boolean;
};

export type TurnEnd = {
  state: Extract<TurnState, "completed" | "cancelled" | "failed" | "suspended">;
  /** The sentence of `errorCode`: what the chat, the turn row and the admin runs list show. */
  reason?: string;
  errorCode?: ErrorCode;
  /** Null when the provider reported no counts: unknown, not free. */
  usage?: TokenUsage | null;
  costUsd?: number | null;
  /** The model calls the turn made, each with its outcome (and failure code). */
  attempts?: Attempt[];
};

/** The workstream as the closing statement left it, for the live update that follows. */
export type ClosedWorkstream = Omit<SummaryRow, "isRunning">;

/**
 * Ends a turn in one statement: its state and record, its last events, its answer, the busy
 * flag cleared (only if it is still this run's) and the workstream's activity time, all or
 * nothing, and only while the turn is open (and, unless `ownerCheck` is off, ours). Nobody can
 * see the turn as open after its terminal event, and a next turn cannot take offsets before this
 * turn's last one. The events are fanned out once committed.
 */
export async function closeTurn({
  turn,
  end,
  events,
  message = null,
  ownerCheck = true,
  reap = false,
  startedWith,
  context = null,
  postTurnEvent = null,
  answerTokens,
  run,
}: {
  turn: Pick<TurnRow, "id" | "workstreamId" | "serverRunId">;
  end: TurnEnd;
  events: LoggedEvent[];
  /** The turn's answer, written as its assistant message. */
  message?: WorkstreamMessage | null;
  ownerCheck?: boolean;
  /**
   * A reaper's close: only while the turn still runs under the run it read. A turn that was
   * suspended, or taken back by an approval, since the reaper read it is left alone.
   */
  reap?: boolean;
  /** The model of a turn that became active without a write of its own (it ends at once). */
  startedWith?: string;
  /** What the model was sent, by section with token counts ("what the agent saw"). */
  context?: ContextRecord | null;
  /**
   * The post-turn event, added to the outbox (`job_events`) by the same statement, so background
   * work exists exactly when the turn's end does. Its data is ids and flags only, read from the
   * freed row: whether the turn completed, whether its history is due for compaction, and
   * whether its messages may hold a skill.
   */
  postTurnEvent?: PostTurnEvent | null;
  /** The answer's token count when the caller has counted it already. */
  answerTokens?: number;
  /** What this run of the turn did, appended to the turn's timeline. */
  run?: RunRecord;
}): Promise<{
  closed: boolean;
  workstream: ClosedWorkstream | null;
  /** The post-turn event as the statement wrote it (the job engine takes it over by id). */
  queuedEvent: JobEvent | null;
}> {
  const _db = await getDb();
  const fanout = await getFanout();
  const announcement = fanout.announcement(events);
  const answer = message ? storableAnswer(message, answerTokens) : null;
  const isClosed = sql`exists (select 1 from closed)`;
  const runJson = run ? JSON.stringify(run) : null;
  // Every part is always there (empty or null when unused), so the statement's text is constant.
  const [row] = await executePrepared<ClosedRow>(sql`
      with closed as (
        update "turns" set "state" = ${end.state}, "reason" = ${end.reason ?? null},
          "error_code" = ${end.errorCode ?? null},
          "usage" = ${end.usage ? JSON.stringify(end.usage) : null}::jsonb,
          "cost_usd" = ${end.costUsd ?? null}::double precision,
          "attempts" = coalesce(${end.attempts?.length ? JSON.stringify(end.attempts) : null}::jsonb, "attempts"),
          "ended_at" = case when ${end.state}::text = 'suspended' then null else now() end,
          "updated_at" = now(),
          "last_offset" = coalesce(${events.at(-1)?.offset ?? null}::bigint, "last_offset"),
          "owner_id" = null, "lease_expires_at" = null,
          "started_at" = case when ${startedWith ?? null}::text is null then "started_at"
            else coalesce("started_at", now()) end,
          "model" = coalesce("model", ${startedWith ?? null}::text),
          "context" = coalesce(${context ? JSON.stringify(context) : null}::jsonb, "context"),
          "timeline" = case when ${runJson}::jsonb is null then "timeline"
            else coalesce("timeline", '[]'::jsonb) || jsonb_build_array(${runJson}::jsonb) end
        where "id" = ${turn.id} and "state" in (${OPEN_STATES_LIST})
          and (not ${ownerCheck}::boolean or "owner_id" = ${PROCESS_ID})
          and (not ${reap}::boolean or ("state" in (${RUNNING_STATES_LIST})
            and "server_run_id" is not distinct from ${turn.serverRunId ?? null}::text))
        returning "id"
      ), logged as (${insertEventsSql(events, isClosed)}),
      answered as (
        insert into "messages" ("workstream_id", "id", "role", "parts", "metadata", "token_count", "turn_id")
        select ${turn.workstreamId}, ${answer?.id ?? null}::text, 'assistant', ${answer?.parts ?? null}::jsonb,
          ${answer?.metadata ?? null}::jsonb, ${answer?.tokenCount ?? null}::int, ${turn.id}
        from closed where ${answer?.id ?? null}::text is not null
        on conflict ("workstream_id", "id") do update set "parts" = excluded."parts",
          "metadata" = excluded."metadata", "token_count" = excluded."token_count", "updated_at" = now()
      ), freed as (
        update "workstreams" set "updated_at" = now(), "active_run_id" = case
          when "active_run_id" = ${turn.serverRunId ?? ""} then null else "active_run_id" end
        where "id" = ${turn.workstreamId} and exists (select 1 from closed)
        returning "id", "organization_id", "owner_id", "title", "mode", "core", "core_type",
          "agent_id", "status", "is_compacting", "created_at", "updated_at"
      ), queued as (
        insert into "job_events" ("id", "name", "data")
        select ${postTurnEvent?.id ?? null}::text, ${postTurnEvent?.name ?? null}::text,
          jsonb_build_object('turnId', ${turn.id}::text, 'workstreamId', freed."id",
            'organizationId', freed."organization_id", 'userId', freed."owner_id",
            'completed', ${postTurnEvent?.completed ?? false}::boolean,
            'compact', ${postTurnEvent?.compact ?? false}::boolean,
            'skills', ${postTurnEvent?.skills ?? false}::boolean,
            'untitled', ${postTurnEvent?.completed ?? false}::boolean and freed."mode" = 'group'
              and not freed."core" and freed."title" = ${config.workstreams.defaultGroupTitle}::text,
            'onboarding', exists (select 1 from "member_onboarding" o
              where o."organization_id" = freed."organization_id" and o."user_id" = freed."owner_id"
                and o."completed_at" is null))
        from freed where ${postTurnEvent?.id ?? null}::text is not null
        returning "id", "name", "data", "created_at"
      )
      select (select count(*) from closed)::int as closed, freed.*,
        ${announceSql(announcement, isClosed)} as announced,
        (select jsonb_build_object('id', q."id", 'name', q."name", 'data', q."data",
          'ts', floor(extract(epoch from q."created_at") * 1000)) from queued q) as queued_event
      from (select 1) as one left join freed on true`);
  const closed = Boolean(row?.closed);
  if (closed && events.length) {
    await fanout.publish(events, { announced: announcement !== null });
  }
  const id = row?.id;
  return {
    closed,
    workstream: closed && row && id ? closedWorkstream({ ...row, id }) : null,
    queuedEvent: closed ? (row?.queued_event ?? null) : null,
  };
}

type ClosedRow = {
  closed: number;
  queued_event: JobEvent | null;
  id: string | null;
  organization_id: string;
  owner_id: string | null;
  title: string;
  mode: "direct" | "group";
  core: boolean;
  core_type: string | null;
  agent_id: string;
  status: "regular" | "archived";
  is_compacting: boolean;
  created_at: Date | string;
  updated_at: Date | string;
};

function closedWorkstream(row: ClosedRow & { id: string }): ClosedWorkstream {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ownerId: row.owner_id,
    title: row.title,
    mode: row.mode,
    core: row.core,
    coreType: row.core_type,
    agentId: row.agent_id,
    status: row.status,
    isCompacting: row.is_compacting,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** Model and tool output may hold text Postgres cannot store; it is kept with U+FFFD instead. */
function storableAnswer(message: WorkstreamMessage, tokens?: number) {
  const parts = toStorableJson(message.parts);
  return {
    id: message.id,
    parts: JSON.stringify(parts),
    metadata: JSON.stringify(toStorableJson(message.metadata ?? {})),
    tokenCount: tokens ?? countTokens(parts),
  };
}
