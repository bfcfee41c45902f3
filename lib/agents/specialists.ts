// consult_specialist: in a group workstream the lead asks one of its specialists a question,
// inside the lead's turn. The specialist answers with its own persona, model profile and tools
// (through the same tool gate and authority stack), reading only the question, the
// `<workstream-state>` and the latest few messages, not the whole history. Its model calls count
// toward the turn's step bound, its tokens and cost toward the turn's; its answer streams into
// the lead's message as a `data-specialist` part (kept with the message, so it survives a
// reload), is recorded in the state's agent contributions, and reaches the lead as the tool's
// result. The turn's abort signal is the specialist's: Stop ends both.
// What it needs of the turn engine and the workstream state comes through ./consultation-host.ts.
import { isStepCount, type ModelMessage, tool, type UIMessageChunk } from "ai";
import { z } from "zod";
import { type AgentConfig, config, getAgent } from "@/lib/config";
import type { HistoryMessage, KeptContext } from "@/lib/context/window";
import { streamModelText } from "@/lib/models/calls";
import { costUsd } from "@/lib/models/catalogue";
import { strictSchema } from "@/lib/models/strict-schema";
import { sumUsage, type TokenUsage, tokenUsage } from "@/lib/models/usage";
import { textOf } from "@/lib/text/message-text";
import type { StageScope } from "@/lib/turns/bus";
import type { HookContext } from "@/lib/turns/hooks";
import type { WorkstreamMessage } from "@/lib/turns/messages";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { declareApproval } from "./approval-policy";
import { consultationHost } from "./consultation-host";
import { agentInstructions } from "./instructions";
import type { ResolvedAgent } from "./resolve-agent";

export const CONSULT_TOOL = "consult_specialist";

/** The nested part a consultation streams into the lead's message (`data-specialist`). */
export type SpecialistPartData = {
  agentId: string;
  name: string;
  question: string;
  text: string;
  status: "working" | "done" | "stopped" | "failed";
  /** Model calls the specialist made (they count toward the turn's step bound). */
  steps: number;
};

/** What the turn's consultations used: added to the turn's steps, tokens and cost. */
export type ConsultationTally = {
  steps: number;
  records: Array<{ usage: TokenUsage | null; costUsd: number | null }>;
  /** Consultations still running: a stop ends the lead's stream before they have wound up. */
  running: Set<Promise<unknown>>;
};

export function emptyTally(): ConsultationTally {
  return { steps: 0, records: [], running: new Set() };
}

/**
 * Resolves once every consultation has wound up: its last part sent (a stopped one says so) and
 * its usage counted. The turn keeps its answer and totals only after this.
 */
export async function consultationsSettled(tally: ConsultationTally): Promise<void> {
  await Promise.allSettled([...tally.running]);
}

/** The specialists the lead of a group workstream may consult: never itself. */
export function specialistsFor(
  workstream: Pick<WorkstreamRow, "mode">,
  leadId: string,
): AgentConfig[] {
  if (workstream.mode !== "group") return [];
  return config.workstreams.groupSpecialistIds.flatMap((id) => {
    const agent = getAgent(id);
    return agent && agent.id !== leadId ? [agent] : [];
  });
}

/** A specialist by id or name, ignoring case ("analyst", "the Analyst"). */
function findSpecialist(specialists: AgentConfig[], asked: string): AgentConfig | undefined {
  const wanted = asked
    .trim()
    .toLowerCase()
    .replace(/^the\s+/, "");
  return specialists.find(
    (agent) => agent.id.toLowerCase() === wanted || agent.name.toLowerCase() === wanted,
  );
}

const TEXT_SEND_EVERY = 120;
const CONTRIBUTION_MAX_CHARS = 480;

/**
 * What the specialist reads: its persona, who asks and why, and the workstream state; then the
 * latest messages (their text only: the lead's tool calls are the lead's business) and the
 * question as the last message.
 */
export function specialistPrompt({
  specialist,
  lead,
  kept,
  history,
  question,
  tools,
}: {
  specialist: AgentConfig;
  /** The tools the specialist is offered (its configured ones by default). */
  tools?: readonly string[];
  lead: Pick<AgentConfig, "name">;
  kept: Pick<KeptContext, "state" | "plan">;
  history: readonly HistoryMessage[];
  question: string;
}): { instructions: string; messages: ModelMessage[] } {
  const state = consultationHost().renderWorkstreamState(kept.state, {
    omitCurrentPlan: kept.plan?.status === "active",
  });
  const instructions = [
    agentInstructions(specialist, tools),
    `${lead.name}, who leads this group workstream, is consulting you. Answer their question ` +
      "for them in a few short paragraphs; they will bring your answer to the member.",
    state || "<workstream-state>\n</workstream-state>",
  ].join("\n\n");
  const latest = history.slice(-config.workstreams.specialistHistoryMessages);
  const messages: ModelMessage[] = latest.flatMap(({ message }) => {
    const text = textOf(message);
    if (!text || message.role === "system") return [];
    return [{ role: message.role, content: text } as ModelMessage];
  });
  messages.push({ role: "user", content: question });
  return { instructions, messages };
}

function contribution(specialist: AgentConfig, question: string, answer: string): string {
  // One plain line: the state panel shows it as text, so markdown marks would show as such.
  const line = (text: string) =>
    text
      .replace(/^\s*(?:[-*+]|\d+\.|#{1,6}|>)\s+/gm, "")
      .replace(/[*_`~]+/g, "")
      .replace(/\s+/g, " ")
      .trim();
  const full = `${specialist.name} on “${line(question)}”: ${line(answer) || "no answer"}`;
  return full.length > CONTRIBUTION_MAX_CHARS
    ? `${full.slice(0, CONTRIBUTION_MAX_CHARS - 1)}…`
    : full;
}

export type ConsultInput = {
  lead: AgentConfig;
  specialists: AgentConfig[];
  workstream: Pick<
    WorkstreamRow,
    "id" | "organizationId" | "ownerId" | "securityMode" | "toolAllowlist"
  >;
  kept: KeptContext;
  history: readonly HistoryMessage[];
  ctx: HookContext;
  scope: StageScope;
  signal: AbortSignal;
  /** The steps the turn has used so far, the lead's current one included. */
  stepsUsed: () => number;
  /** Resolves a specialist like the turn's own agent (resolveAgent hooks, scoped tools). */
  resolve: (agentId: string) => Promise<ResolvedAgent>;
  /** Writes a chunk into the turn's message stream, in order with the lead's own. */
  emit: (chunk: UIMessageChunk) => void;
  tally: ConsultationTally;
};

// Wrapped once, so the SDK converts it to JSON Schema once (see lib/agents/tools.ts).
const consultSchema = strictSchema(
  z.object({
    specialist: z.string().trim().min(1).max(64).describe('Their name, e.g. "Analyst".'),
    question: z
      .string()
      .trim()
      .min(1)
      .max(4_000)
      .describe('Self-contained, e.g. "Is leasing at 4,000 a month cheaper than buying?"'),
  }),
);

/** A consultation stays inside the workstream: it needs no approval of its own. */
export function declareSpecialistTool(): void {
  declareApproval(CONSULT_TOOL, false);
}

export function consultSpecialistTool(input: ConsultInput) {
  const names = input.specialists.map((agent) => agent.name).join(", ");
  return tool({
    description:
      `Asks a specialist of this group workstream (${names}) a question and returns their ` +
      "answer, which you then bring to the member. Use it when the question needs their " +
      "depth: research, numbers and trade-offs, or a polished draft; not for what you can " +
      "answer yourself. They see the workstream state and the latest messages, not the whole " +
      "history, so put what they need in the question.",
    strict: true,
    inputSchema: consultSchema,
    execute: ({ specialist, question }, { toolCallId }) => {
      const running = consult(input, { asked: specialist, question, id: toolCallId });
      const { tally } = input;
      tally.running.add(running);
      // The SDK reports the consultation's failure; this only forgets it.
      const forget = () => tally.running.delete(running);
      running.then(forget, forget);
      return running;
    },
  });
}

async function consult(
  input: ConsultInput,
  { asked, question, id }: { asked: string; question: string; id: string },
): Promise<{ agentId: string; specialist: string; answer: string }> {
  const specialist = findSpecialist(input.specialists, asked);
  if (!specialist) {
    const names = input.specialists.map((agent) => agent.name).join(", ");
    throw new Error(`No specialist here is called "${asked}". Ask one of: ${names}.`);
  }
  const left = config.turns.maxSteps - input.stepsUsed();
  if (left < 1) {
    throw new Error("This turn has no steps left for a consultation; answer with what you have.");
  }
  const { signal, tally } = input;
  const engine = consultationHost();
  const resolved = await input.resolve(specialist.id);
  const data: SpecialistPartData = {
    agentId: specialist.id,
    name: specialist.name,
    question,
    text: "",
    status: "working",
    steps: 0,
  };
  const send = () => input.emit({ type: "data-specialist", id, data: { ...data } });
  send();
  const usages: Array<TokenUsage | null> = [];
  try {
    const prompt = specialistPrompt({
      specialist,
      lead: input.lead,
      kept: input.kept,
      history: input.history,
      question,
      tools: Object.keys(resolved.tools),
    });
    const calls = engine.nestedToolCalls({
      tools: resolved.tools,
      workstream: input.workstream,
      kept: input.kept,
      ctx: input.ctx,
      scope: input.scope,
    });
    const result = streamModelText({
      call: "specialist",
      model: resolved.model.model,
      instructions: prompt.instructions,
      messages: prompt.messages,
      tools: calls.tools,
      // A specialist cannot pause the turn for the member: a call that would ask is refused,
      // and the lead may make it itself, with the member's approval.
      toolApproval: async (call) => {
        const status = await calls.toolApproval(call);
        const kind = typeof status === "object" ? status.type : status;
        if (kind !== "user-approval") return status;
        return {
          type: "denied",
          reason: "A specialist cannot ask the member for approval; the lead may do it.",
        };
      },
      stopWhen: isStepCount(left),
      abortSignal: signal,
      maxRetries: 0,
      onError: () => {}, // an error part ends the loop below
      onStepEnd: (step) => {
        usages.push(tokenUsage(step.usage));
        data.steps += 1;
        tally.steps += 1;
      },
    });
    let unsent = 0;
    for await (const part of result.stream) {
      if (part.type === "text-delta") {
        data.text += part.text;
        unsent += part.text.length;
        if (unsent >= TEXT_SEND_EVERY) {
          send();
          unsent = 0;
        }
      } else if (part.type === "error") {
        throw part.error;
      }
    }
    signal.throwIfAborted();
    data.status = "done";
  } catch (error) {
    data.status = signal.aborted ? "stopped" : "failed";
    throw signal.aborted ? signal.reason : error;
  } finally {
    if (usages.length > 0) {
      const usage = sumUsage(usages);
      const servedBy =
        resolved.model.attempts.findLast((attempt) => attempt.outcome === "ok")?.modelId ??
        resolved.model.modelId;
      tally.records.push({ usage, costUsd: costUsd(servedBy, usage) });
    }
    send();
  }
  await recordContribution(input, specialist, question, data.text);
  return { agentId: specialist.id, specialist: specialist.name, answer: data.text };
}

/** The consultation in the state's agent contributions; a failure to record it is only logged. */
async function recordContribution(
  { workstream, ctx }: ConsultInput,
  specialist: AgentConfig,
  question: string,
  answer: string,
): Promise<void> {
  const ownerId = workstream.ownerId ?? ctx.userId;
  if (!ownerId) return;
  try {
    await consultationHost().applyStateDelta({
      workstreamId: workstream.id,
      organizationId: workstream.organizationId,
      ownerId,
      delta: {
        agentContributions: {
          add: [{ text: contribution(specialist, question, answer), agentId: specialist.id }],
        },
      },
      mode: "evict",
    });
  } catch (error) {
    console.error(`[turn ${ctx.turnId}] recording ${specialist.id}'s contribution failed`, error);
  }
}

/** Model calls made by the consultations kept in `message` (a turn going on after approvals). */
export function consultedSteps(message: WorkstreamMessage): number {
  return message.parts.reduce((sum, part) => {
    if (part.type !== "data-specialist") return sum;
    const steps = (part as { data?: { steps?: unknown } }).data?.steps;
    return sum + (typeof steps === "number" ? steps : 0);
  }, 0);
}
