// COMPOSE_REQUEST: the turn reads what its prompt needs from each owner (the history since the
// last compaction, the state and plan, the memory block, the tool policy, the offered skills,
// the workstream's files, the member's memories) and the context builder assembles the request
// within the model's window (lib/context/build.ts). Each read is one query whatever the amount
// it returns, so a turn's statements do not grow with its history, memories, skills or files.
import type { ModelMessage } from "ai";
import type { ResolvedAgent } from "@/lib/agents/resolve-agent";
import { readToolPolicy } from "@/lib/approvals/store";
import { composeRequest, latestUserText } from "@/lib/context/build";
import {
  type HistoryMessage,
  historyReadCap,
  type KeptContext,
  newestWithin,
} from "@/lib/context/window";
import { turnFiles } from "@/lib/files/records";
import { resolveAttachments } from "@/lib/files/resolve";
import { errorClass } from "@/lib/kernel/error-class";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { readMemoryBlock } from "@/lib/memory/block";
import {
  anyMemoryVectors,
  getTopMemories,
  type MemoryReader,
  type RetrievedMemory,
  retrieveMemories,
} from "@/lib/memory/retrieve";
import { type OfferedSkill, offeredSkills } from "@/lib/skills/store";
import type { ContextRecord } from "@/lib/state/schema";
import { readStateAndPlan } from "@/lib/state/store";
import { stage } from "../bus";
import { afterStage, beforeStage, hooksOf } from "../hooks";
import { readHistory } from "../message-store";
import { isFirstTurn, preparingPreamble } from "../preambles";
import { resolveTurnAgent } from "../turn-agent";
import type { TurnRun } from "./run";

export type ComposedTurn = {
  resolved: ResolvedAgent;
  /** The messages since the last compaction that fit any window, the newest last. */
  history: HistoryMessage[];
  /** Older messages since the last compaction that did not fit. */
  historyLeftOut: number;
  kept: KeptContext;
  skills: OfferedSkill[];
  instructions: string;
  messages: ModelMessage[];
  record: ContextRecord;
};

/** What the turn's context is made of, each read from its owner, side by side. */
async function readContext(run: TurnRun) {
  const { workstream, viewer } = run;
  const reader: MemoryReader = {
    organizationId: workstream.organizationId,
    userId: viewer.userId,
    agentId: workstream.agentId,
  };
  const [history, kept, block, toolPolicy, skills, files, top, anyVectors] = await Promise.all([
    readHistory({
      workstreamId: workstream.id,
      lastCompactedMessageId: workstream.lastCompactedMessageId,
    }),
    readStateAndPlan(workstream.id),
    readMemoryBlock(workstream.id),
    readToolPolicy(workstream.organizationId),
    offeredSkills({ organizationId: workstream.organizationId, userId: viewer.userId }),
    turnFiles(workstream.id),
    getTopMemories(reader),
    anyMemoryVectors(reader),
  ]);
  const fitting = [...newestWithin(history, historyReadCap(), history.length)];
  return {
    reader,
    history: fitting,
    historyLeftOut: history.length - fitting.length,
    kept: {
      ...kept,
      memorySummary: block.summary,
      memoryEntries: block.entries,
      toolPolicy,
    } satisfies KeptContext,
    skills,
    files,
    memories: { top, anyVectors },
  };
}

export function composeStage(run: TurnRun): Promise<ComposedTurn> {
  const { turn, workstream, viewer, controller, log, resumed, scope, ctx } = run;
  return stage(scope, "COMPOSE_REQUEST", async () => {
    const read = await readContext(run);
    const resolved = await resolveTurnAgent(
      { turn, workstream, offeredSkills: read.skills.length },
      workstream.agentId,
    );
    const modelId = resolved.model.modelId;
    // Stopped while pending: the turn ends cancelled without the model ever being called.
    controller.signal.throwIfAborted();
    // The turn becomes active with its next logged event, in the same statement.
    log.activate(modelId);
    // Something to read while the context is assembled: the greeting on the first turn.
    if (!resumed) {
      const compacted = read.historyLeftOut > 0 || !!workstream.lastCompactedMessageId;
      log.append(preparingPreamble(turn.id, resolved.agent, isFirstTurn(read.history, compacted)));
    }
    const latestText = latestUserText(read.history);
    const memories = await knowledge(run, read.reader, latestText, read.memories);
    // Attachment URLs are made fresh for every turn; stored messages name files by id only.
    const resolveStartedAt = performance.now();
    const attachments = await resolveAttachments({
      workstreamId: workstream.id,
      messages: read.history.map(({ message }) => message),
      modelId,
      known: read.files,
    });
    const attachmentsMs = performance.now() - resolveStartedAt;
    const extraSections: string[] = [];
    for (const hook of hooksOf("buildExtraInstructionSections")) {
      const section = await hook.run({
        workstream,
        latestUserText: latestText,
        member: viewer,
        skills: read.skills,
      });
      if (section) extraSections.push(section);
    }
    const request = await composeRequest({
      attachments,
      attachmentsMs,
      workstream,
      agent: resolved.agent,
      modelId,
      viewer,
      history: read.history,
      historyLeftOut: read.historyLeftOut,
      kept: read.kept,
      tools: resolved.tools,
      memories,
      extraSections,
    });
    run.context = request.record;
    const payload = await beforeStage(
      "COMPOSE_REQUEST",
      { instructions: request.instructions, messages: request.messages },
      ctx,
    );
    await afterStage("COMPOSE_REQUEST", payload, ctx);
    return {
      resolved,
      history: read.history,
      historyLeftOut: read.historyLeftOut,
      kept: read.kept,
      skills: read.skills,
      instructions: payload.instructions,
      messages: payload.messages,
      record: request.record,
    };
  });
}

/**
 * The memories the turn's context holds: the pre-seeded ones and the knowledge retrieved by the
 * latest user message (full text, fused with the nearest vectors when an embedding model is
 * configured and a visible memory has one), none of them twice. A failing retrieval is a
 * warning: it is logged, the chat is told with a status it shows for the rest of the turn, and
 * the turn goes on without retrieved knowledge.
 */
async function knowledge(
  { turn, controller, scope }: TurnRun,
  reader: MemoryReader,
  text: string,
  { top, anyVectors }: { top: RetrievedMemory[]; anyVectors: boolean },
): Promise<{ top: RetrievedMemory[]; retrieved: RetrievedMemory[] }> {
  const { memories: found, failure } = await retrieveMemories({
    reader,
    text,
    // No visible memory has a vector yet: the message is not even embedded.
    vectors: anyVectors,
    abortSignal: controller.signal,
  });
  controller.signal.throwIfAborted();
  let retrieved = found;
  if (failure) {
    console.warn(`[turns] ${turn.id}: knowledge retrieval failed (${errorClass(failure)})`);
    scope.status?.({
      state: "warning",
      code: "retrieval:failed",
      message: ERROR_SENTENCES["retrieval:failed"],
    });
    retrieved = [];
  }
  const seeded = new Set(top.map((memory) => memory.id));
  return { top, retrieved: retrieved.filter((memory) => !seeded.has(memory.id)) };
}
