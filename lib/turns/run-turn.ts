// One turn's run, stage by stage (seed 004 names): COMPOSE_REQUEST, SEND_REQUEST,
// STREAM_RESPONSE (with TOOL_CALL inside the tool loop), RENDER, then cleanup that always runs.
import { isStepCount, streamText, type UIMessageChunk } from "ai";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import { resolveAgent } from "@/lib/agents/resolve-agent";
import type { Viewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { TextRechunker } from "@/lib/stream/rechunk";
import { type LoggedChunk, statusChunk } from "@/lib/stream/types";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { bus, stage } from "./bus";
import { composeRequest } from "./context";
import { type MessageMetadata, upsertAssistantMessage, type WorkstreamMessage } from "./messages";
import { runRegistry, StopRequested } from "./run-registry";
import type { TurnEmitter } from "./turn-emitter";
import { chunkEvents, closeTurn, markActive, type TurnEnd, type TurnRow } from "./turn-store";

type RunInput = {
  turn: TurnRow;
  workstream: WorkstreamRow;
  viewer: Viewer;
  controller: AbortController;
  emitter: TurnEmitter;
};

type Outcome = { end: TurnEnd; message: WorkstreamMessage | null; closing: LoggedChunk[] };

export async function runTurn(input: RunInput): Promise<void> {
  const { turn, controller } = input;
  let outcome: Outcome;
  try {
    outcome = await execute(input);
  } catch (error) {
    outcome = failureOutcome(turn, error, controller.signal);
  }
  await finish(input, outcome);
}

async function execute({ turn, workstream, controller, emitter }: RunInput): Promise<Outcome> {
  const startedAt = new Date().toISOString();
  const resolved = await resolveAgent({ agentId: workstream.agentId });
  await markActive({ turnId: turn.id, model: resolved.model.modelId });
  emitter.status({ state: "processing", stage: "COMPOSE_REQUEST" });
  const composed = await stage(turn.id, "COMPOSE_REQUEST", () =>
    composeRequest({ workstream, agent: resolved.agent }),
  );
  const baseMetadata: MessageMetadata = {
    agentId: resolved.agent.id,
    turnId: turn.id,
    model: resolved.model.modelId,
    reasoningProfile: resolved.reasoningProfile,
    startedAt,
  };
  emitter.emit({
    type: "start",
    messageId: turn.assistantMessageId,
    messageMetadata: baseMetadata,
  });
  emitter.status({ state: "processing", stage: "SEND_REQUEST" });

  let final: WorkstreamMessage | null = null;
  let errorText: string | null = null;
  const result = await stage(turn.id, "SEND_REQUEST", async () =>
    streamText({
      model: resolved.model.model,
      instructions: composed.instructions,
      messages: composed.messages,
      allowSystemInMessages: true,
      tools: resolved.tools,
      stopWhen: isStepCount(config.turns.maxSteps),
      abortSignal: controller.signal,
      // Failures reach the turn through the UI stream's error chunk (onError below).
      onError: () => {},
    }),
  );
  const ui = result.toUIMessageStream<WorkstreamMessage>({
    sendStart: false,
    onEnd: ({ responseMessage }) => {
      final = responseMessage;
    },
    onError: (error) => {
      errorText = describeModelError(error);
      return errorText;
    },
  });

  const rechunker = new TextRechunker({
    min: config.turns.chunkMinChars,
    max: config.turns.chunkMaxChars,
    emit: (chunk) => emitter.emit(chunk),
  });
  const idleFlush = setInterval(() => {
    if (rechunker.hasPending()) rechunker.flushAll();
  }, 60);
  let sawText = false;
  try {
    await stage(turn.id, "STREAM_RESPONSE", async () => {
      for await (const chunk of ui as AsyncIterable<UIMessageChunk>) {
        if (emitter.failure) throw emitter.failure;
        if (chunk.type === "text-delta") sawText = true;
        if (chunk.type === "tool-input-available") {
          emitter.status({ state: "tool", toolName: chunk.toolName });
        }
        // Finish, abort and error chunks are written by the closing transaction.
        if (chunk.type === "finish" || chunk.type === "abort" || chunk.type === "error") continue;
        rechunker.push(chunk);
      }
      rechunker.flushAll();
    });
  } finally {
    clearInterval(idleFlush);
  }

  const usage = await Promise.resolve(result.totalUsage).catch(() => undefined);
  const message = withMetadata(final, turn.assistantMessageId, {
    ...baseMetadata,
    finishedAt: new Date().toISOString(),
    inputTokens: usage?.inputTokens,
    outputTokens: usage?.outputTokens,
    reasoningTokens: usage?.outputTokenDetails?.reasoningTokens,
  });
  if (controller.signal.aborted) {
    const reason = stopReason(controller.signal);
    return {
      end: { state: "cancelled", reason, usage },
      message: markMessage(message, { stopped: true }),
      closing: [{ type: "abort", reason }, statusChunk(turn.id, { state: "cancelled", reason })],
    };
  }
  if (errorText) {
    const text: string = errorText;
    return {
      end: { state: "failed", reason: text, errorCode: "model:failed", usage },
      message: sawText ? markMessage(message, { failed: true }) : null,
      closing: [
        { type: "error", errorText: text },
        statusChunk(turn.id, {
          state: "error",
          code: "model:failed",
          message: text,
          retryable: true,
        }),
      ],
    };
  }
  return {
    end: { state: "completed", usage },
    message,
    closing: [
      { type: "finish", finishReason: "stop", messageMetadata: message?.metadata },
      statusChunk(turn.id, { state: "ready" }),
    ],
  };
}

function withMetadata(
  message: WorkstreamMessage | null,
  id: string,
  metadata: MessageMetadata,
): WorkstreamMessage | null {
  if (!message || message.parts.length === 0) return null;
  return { ...message, id, role: "assistant", metadata: { ...message.metadata, ...metadata } };
}

function markMessage(message: WorkstreamMessage | null, flags: MessageMetadata) {
  return message ? { ...message, metadata: { ...message.metadata, ...flags } } : null;
}

function stopReason(signal: AbortSignal): string {
  return signal.reason instanceof StopRequested ? signal.reason.reason : "stopped";
}

function describeModelError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `The model failed: ${message.slice(0, 300)}`;
}

function failureOutcome(turn: TurnRow, error: unknown, signal: AbortSignal): Outcome {
  if (signal.aborted) {
    const reason = stopReason(signal);
    return {
      end: { state: "cancelled", reason },
      message: null,
      closing: [{ type: "abort", reason }, statusChunk(turn.id, { state: "cancelled", reason })],
    };
  }
  console.error(`[turn ${turn.id}] failed:`, error);
  const text = "The turn failed on the server. Retry to try again.";
  return {
    end: {
      state: "failed",
      reason: error instanceof Error ? error.message : String(error),
      errorCode: "internal:turn",
    },
    message: null,
    closing: [
      { type: "error", errorText: text },
      statusChunk(turn.id, {
        state: "error",
        code: "internal:turn",
        message: text,
        retryable: true,
      }),
    ],
  };
}

/** RENDER and cleanup: persist, close the turn with its last events, always unregister. */
async function finish({ turn, workstream, emitter, controller }: RunInput, outcome: Outcome) {
  try {
    await stage(turn.id, "RENDER", async () => {
      if (outcome.message) {
        await upsertAssistantMessage({
          workstreamId: workstream.id,
          message: outcome.message,
          turnId: turn.id,
        });
      }
      await (await getDb())
        .update(workstreams)
        .set({ updatedAt: sql`now()` })
        .where(eq(workstreams.id, workstream.id));
    });
    await emitter.settled().catch((error: unknown) => {
      console.error(`[turn ${turn.id}] event log write failed:`, error);
    });
    const events = chunkEvents(turn, emitter.take(outcome.closing.length), outcome.closing);
    await closeTurn({ turn, end: outcome.end, events });
    bus.emit({
      type: "SessionTurnEnd",
      turnId: turn.id,
      workstreamId: workstream.id,
      state: outcome.end.state,
    });
    if (outcome.end.state === "completed") {
      bus.emit({
        type: "TurnCompleted",
        turnId: turn.id,
        workstreamId: workstream.id,
        organizationId: workstream.organizationId,
      });
    }
  } catch (error) {
    // The lease lapses and the reaper ends the turn; the busy flag cannot stay set forever.
    console.error(`[turn ${turn.id}] could not be closed:`, error);
  } finally {
    runRegistry.unregister(turn.id);
    if (!controller.signal.aborted) controller.abort(new StopRequested("disposed"));
  }
}
