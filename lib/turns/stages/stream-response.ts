// STREAM_RESPONSE: the model's UI message stream, chunk by chunk (through the STREAM_RESPONSE
// hooks when there are any), re-chunked into 36–72 character pieces and logged (the first text
// at once, committed before anyone sees it; lib/stream/event-log.ts). A group workstream's lead
// may consult its specialists within the turn: their parts are written beside the model's.
import type { Tool, UIMessageChunk } from "ai";
import {
  CONSULT_TOOL,
  type ConsultationTally,
  consultationsSettled,
  consultSpecialistTool,
  emptyTally,
  specialistsFor,
} from "@/lib/agents/specialists";
import { config } from "@/lib/config";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import type { TokenUsage } from "@/lib/models/usage";
import { TextRechunker } from "@/lib/stream/rechunk";
import { RewrittenMessage } from "../answer";
import { bus, stage } from "../bus";
import { hasStageHooks, runStageHooks } from "../hooks";
import type { MessageMetadata, WorkstreamMessage } from "../messages";
import { describeModelError } from "../outcome";
import { ToolBatchAnnouncer } from "../preambles";
import { stepsSoFar } from "../suspend";
import { resolveTurnAgent } from "../turn-agent";
import type { ComposedTurn } from "./compose-request";
import type { TurnRun } from "./run";
import type { SentRequest } from "./send-request";

/** What the run's model stream is written through, and what it counts as it goes. */
export type StreamingTurn = {
  metadata: MessageMetadata;
  rechunker: TextRechunker;
  /** With chunk transforms or consultations: the answer rebuilt from the chunks logged. */
  rewritten: RewrittenMessage | null;
  transformChunks: boolean;
  tools: Record<string, Tool>;
  consultations: ConsultationTally;
  /** Each finished model call's usage and how it ended, in order. */
  stepsEnded: Array<{ usage: TokenUsage | null; finishReason: string }>;
  /** The steps used with `steps` of the lead's own: before an approval, and consultations'. */
  stepsUsed: (steps: number) => number;
};

export type StreamedAnswer = {
  result: SentRequest;
  final: WorkstreamMessage | null;
  error: unknown;
  /** Whether the model produced any text or tool call (a failed turn keeps its answer then). */
  sawContent: boolean;
};

/** Writes the answer's start and sets up the stream's writer, tools and counters. */
export function prepareStream(run: TurnRun, composed: ComposedTurn): StreamingTurn {
  const { turn, workstream, log, controller, resumed, ctx, scope } = run;
  const { resolved } = composed;
  const metadata: MessageMetadata = {
    agentId: resolved.agent.id,
    turnId: turn.id,
    model: resolved.model.modelId,
    reasoningProfile: resolved.reasoningProfile,
    startedAt: resumed?.message.metadata?.startedAt ?? new Date().toISOString(),
  };
  log.append({ type: "start", messageId: turn.assistantMessageId, messageMetadata: metadata });
  let sentFirstText = false;
  const rechunker = new TextRechunker({
    min: config.turns.chunkMinChars,
    max: config.turns.chunkMaxChars,
    emit: (chunk) => {
      if (chunk.type === "text-delta") {
        bus.emit({ type: "ProviderTokensStreamed", turnId: turn.id, chars: chunk.delta.length });
      }
      // The first text of a turn is committed and sent at once, not on the batch timer.
      const first = chunk.type === "text-delta" && !sentFirstText;
      if (first) sentFirstText = true;
      log.append(chunk, { immediate: first });
    },
  });
  const transformChunks = hasStageHooks("STREAM_RESPONSE");
  const specialists = specialistsFor(workstream, resolved.agent.id);
  const rewritten =
    transformChunks || specialists.length > 0
      ? new RewrittenMessage(
          turn.assistantMessageId,
          resumed ? structuredClone(resumed.message) : undefined,
        )
      : null;
  const consultations = emptyTally();
  const stepsEnded: StreamingTurn["stepsEnded"] = [];
  // After an approval the turn goes on with the steps it has left.
  const stepsBefore = resumed ? stepsSoFar(resumed.message) : 0;
  const tools =
    specialists.length > 0
      ? {
          ...resolved.tools,
          [CONSULT_TOOL]: consultSpecialistTool({
            lead: resolved.agent,
            specialists,
            workstream,
            kept: composed.kept,
            history: composed.history,
            ctx,
            scope,
            signal: controller.signal,
            // The lead's finished steps, the one calling the tool, and every consultation's.
            stepsUsed: () => stepsBefore + stepsEnded.length + 1 + consultations.steps,
            resolve: (agentId) =>
              resolveTurnAgent(
                { turn, workstream, offeredSkills: composed.skills.length },
                agentId,
              ),
            emit: (chunk) => {
              rewritten?.push(chunk);
              rechunker.push(chunk);
            },
            tally: consultations,
          }),
        }
      : resolved.tools;
  return {
    metadata,
    rechunker,
    rewritten,
    transformChunks,
    tools,
    consultations,
    stepsEnded,
    stepsUsed: (steps) => stepsBefore + steps + consultations.steps,
  };
}

export async function streamStage(
  run: TurnRun,
  composed: ComposedTurn,
  streaming: StreamingTurn,
  result: SentRequest,
): Promise<StreamedAnswer> {
  const { turn, log, resumed, scope, ctx } = run;
  const { rechunker, rewritten, transformChunks } = streaming;
  let final: WorkstreamMessage | null = null;
  let error: unknown = null;
  const ui = result.toUIMessageStream<WorkstreamMessage>({
    sendStart: false,
    // Going on after an approval: the answer continues the message kept at the suspension.
    originalMessages: resumed ? [resumed.message] : undefined,
    onEnd: ({ responseMessage }) => {
      final = responseMessage;
    },
    // Tool failures are results the model sees, not turn failures: don't route them here.
    redactToolErrors: false,
    onError: (failure) => {
      error ??= failure;
      return ERROR_SENTENCES[describeModelError(failure).code];
    },
  });
  // Text held back to fill a 36–72 character piece waits at most 250 ms.
  const idleFlush = setInterval(() => rechunker.flushStale(250), 50);
  const announcer = new ToolBatchAnnouncer(turn.id, composed.resolved.agent);
  let sawContent = false;
  try {
    await stage(scope, "STREAM_RESPONSE", async () => {
      for await (const raw of ui as AsyncIterable<UIMessageChunk>) {
        if (log.failure) throw log.failure;
        // Finish, abort and error chunks are written by the closing transaction.
        if (raw.type === "finish" || raw.type === "abort" || raw.type === "error") continue;
        const chunk = transformChunks
          ? (await runStageHooks("STREAM_RESPONSE", { chunk: raw }, ctx)).chunk
          : raw;
        if (chunk.type === "text-delta" || chunk.type === "tool-input-start") sawContent = true;
        if (chunk.type === "tool-input-available") {
          bus.emit({
            type: "ToolInvocationProposed",
            turnId: turn.id,
            toolName: chunk.toolName,
            toolCallId: chunk.toolCallId,
          });
        }
        // After a batch of tool calls, the agent's announcement before its next model call.
        const announcement = announcer.before(chunk);
        if (announcement) rechunker.push(announcement as unknown as UIMessageChunk);
        rewritten?.push(chunk);
        rechunker.push(chunk);
      }
      rechunker.flushAll();
    });
    // A stop ends the stream above before a consultation has sent its last part and counted its
    // usage; both belong to the answer kept.
    await consultationsSettled(streaming.consultations);
    rechunker.flushAll();
    if (rewritten) {
      // Set by the stream's onEnd callback, which TypeScript cannot see.
      const kept = final as WorkstreamMessage | null;
      const message = await rewritten.message();
      if (message) final = { ...message, metadata: kept?.metadata ?? message.metadata };
    }
  } finally {
    clearInterval(idleFlush);
  }
  return { result, final, error, sawContent };
}
