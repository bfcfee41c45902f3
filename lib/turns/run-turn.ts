// One turn's run, stage by stage (seed 004 names): COMPOSE_REQUEST, SEND_REQUEST,
// STREAM_RESPONSE (with TOOL_CALL inside the bounded tool loop), RENDER, then cleanup that
// always runs. Status events are fed from the bus; hooks may transform, guard or observe.
import { isStepCount, streamText, type UIMessageChunk } from "ai";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import { defaultResolveAgent } from "@/lib/agents/resolve-agent";
import type { Viewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { costUsd } from "@/lib/models/pricing";
import { TextRechunker } from "@/lib/stream/rechunk";
import { statusChunk } from "@/lib/stream/types";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { bus, stage } from "./bus";
import { composeRequest } from "./context";
import { GuardRefusal, type HookContext, hasStageHooks, hooksOf, runStageHooks } from "./hooks";
import { type MessageMetadata, upsertAssistantMessage, type WorkstreamMessage } from "./messages";
import { cancelled, describeModelError, failed, type Outcome, stopReason } from "./outcome";
import { runRegistry, StopRequested } from "./run-registry";
import { gateTools } from "./tool-gate";
import type { TurnEmitter } from "./turn-emitter";
import { chunkEvents, closeTurn, markActive, type TurnRow } from "./turn-store";

type RunInput = {
  turn: TurnRow;
  workstream: WorkstreamRow;
  viewer: Viewer;
  controller: AbortController;
  emitter: TurnEmitter;
};

export async function runTurn(input: RunInput): Promise<void> {
  const { turn, controller, emitter } = input;
  // Status events are projections of the bus, written to this turn's log.
  const unsubscribe = bus.on((event) => {
    if (!("turnId" in event) || event.turnId !== turn.id) return;
    if (
      event.type === "StagePreFired" &&
      event.stage !== "RENDER" &&
      event.stage !== "RECEIVE_INPUT"
    ) {
      emitter.status({ state: "processing", stage: event.stage });
    } else if (event.type === "ToolInvocationProposed") {
      emitter.status({ state: "tool", toolName: event.toolName });
    }
  });
  let outcome: Outcome;
  try {
    outcome = await execute(input);
  } catch (error) {
    if (controller.signal.aborted)
      outcome = cancelled(turn.id, stopReason(controller.signal), null);
    else {
      if (!(error instanceof GuardRefusal)) console.error(`[turn ${turn.id}] failed:`, error);
      outcome = failed(turn.id, describeModelError(error), null);
    }
  } finally {
    unsubscribe();
  }
  await finish(input, outcome);
}

async function execute({
  turn,
  workstream,
  viewer,
  controller,
  emitter,
}: RunInput): Promise<Outcome> {
  const ctx: HookContext = {
    turnId: turn.id,
    workstreamId: workstream.id,
    organizationId: workstream.organizationId,
    userId: viewer.userId,
  };
  const startedAt = new Date().toISOString();
  let resolved = await defaultResolveAgent({
    agentId: workstream.agentId,
    onAttempt: (attempt) => {
      const type = attempt.outcome === "ok" ? "ProviderRequestCompleted" : "ProviderRequestFailed";
      if (type === "ProviderRequestCompleted") {
        bus.emit({
          type,
          turnId: turn.id,
          modelId: attempt.modelId,
          attempt: attempt.attempt,
          ms: attempt.ms,
        });
      } else {
        bus.emit({
          type,
          turnId: turn.id,
          modelId: attempt.modelId,
          attempt: attempt.attempt,
          error: attempt.error ?? "",
        });
      }
    },
  });
  for (const hook of hooksOf("resolveAgent")) resolved = await hook.run({ workstream, resolved });
  await markActive({ turnId: turn.id, model: resolved.model.modelId });

  const composed = await stage(turn.id, "COMPOSE_REQUEST", async () => {
    const request = await composeRequest({ workstream, agent: resolved.agent });
    return runStageHooks("COMPOSE_REQUEST", request, ctx);
  });
  const metadata: MessageMetadata = {
    agentId: resolved.agent.id,
    turnId: turn.id,
    model: resolved.model.modelId,
    reasoningProfile: resolved.reasoningProfile,
    startedAt,
  };
  emitter.emit({ type: "start", messageId: turn.assistantMessageId, messageMetadata: metadata });

  let final: WorkstreamMessage | null = null;
  let streamError: unknown = null;
  const result = await stage(turn.id, "SEND_REQUEST", async () => {
    await runStageHooks(
      "SEND_REQUEST",
      { modelId: resolved.model.modelId, provider: resolved.model.provider },
      ctx,
    );
    bus.emit({
      type: "ProviderRequestStarted",
      turnId: turn.id,
      modelId: resolved.model.modelId,
      attempt: 1,
    });
    return streamText({
      model: resolved.model.model,
      instructions: composed.instructions,
      messages: composed.messages,
      allowSystemInMessages: true,
      tools: gateTools(resolved.tools, ctx),
      stopWhen: isStepCount(config.turns.maxSteps),
      abortSignal: controller.signal,
      maxRetries: 0, // attempts, backoff and fallback are the resilient model's
      onError: () => {}, // failures reach the turn through the UI stream's error chunk
    });
  });
  const ui = result.toUIMessageStream<WorkstreamMessage>({
    sendStart: false,
    onEnd: ({ responseMessage }) => {
      final = responseMessage;
    },
    // Tool failures are results the model sees (E7), not turn failures: don't route them here.
    redactToolErrors: false,
    onError: (error) => {
      streamError ??= error;
      return describeModelError(error).text;
    },
  });

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
      emitter.emit(chunk, { immediate: first });
    },
  });
  // Text held back to fill a 36–72 character piece waits at most 250 ms.
  const idleFlush = setInterval(() => rechunker.flushStale(250), 50);
  const transformChunks = hasStageHooks("STREAM_RESPONSE");
  let sawContent = false;
  try {
    await stage(turn.id, "STREAM_RESPONSE", async () => {
      for await (const raw of ui as AsyncIterable<UIMessageChunk>) {
        if (emitter.failure) throw emitter.failure;
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
        rechunker.push(chunk);
      }
      rechunker.flushAll();
    });
  } finally {
    clearInterval(idleFlush);
  }

  const usage = await Promise.resolve(result.totalUsage).catch(() => undefined);
  const steps = await Promise.resolve(result.steps).catch(() => []);
  const servedBy =
    resolved.model.attempts.findLast((attempt) => attempt.outcome === "ok")?.modelId ??
    resolved.model.modelId;
  const cost = costUsd(servedBy, usage);
  const message = buildMessage(final, turn.assistantMessageId, {
    ...metadata,
    model: servedBy,
    finishedAt: new Date().toISOString(),
    inputTokens: usage?.inputTokens,
    outputTokens: usage?.outputTokens,
    reasoningTokens: usage?.outputTokenDetails?.reasoningTokens,
    costUsd: cost,
  });
  // Attempts are written with the turn's end, not one row update per model call.
  const extra = { usage, costUsd: cost, attempts: resolved.model.attempts };
  if (controller.signal.aborted)
    return cancelled(turn.id, stopReason(controller.signal), message, extra);
  if (streamError)
    return failed(turn.id, describeModelError(streamError), sawContent ? message : null, extra);
  const last = steps.at(-1);
  if (steps.length >= config.turns.maxSteps && last?.finishReason === "tool-calls") {
    const text =
      `The turn stopped after ${config.turns.maxSteps} steps, the limit per turn. ` +
      "Earlier tool calls may have completed; check their results before retrying.";
    return failed(turn.id, { code: "turn:step_limit", text, retryable: false }, message, extra);
  }
  return {
    end: { state: "completed", ...extra },
    message,
    closing: [
      { type: "finish", finishReason: "stop", messageMetadata: message?.metadata },
      statusChunk(turn.id, { state: "ready" }),
    ],
  };
}

function buildMessage(message: WorkstreamMessage | null, id: string, metadata: MessageMetadata) {
  if (!message || message.parts.length === 0) return null;
  return {
    ...message,
    id,
    role: "assistant" as const,
    metadata: { ...message.metadata, ...metadata },
  };
}

/** RENDER and cleanup: persist, close the turn with its last events, always unregister. */
async function finish(
  { turn, workstream, viewer, emitter, controller }: RunInput,
  outcome: Outcome,
) {
  try {
    const ctx: HookContext = {
      turnId: turn.id,
      workstreamId: workstream.id,
      organizationId: workstream.organizationId,
      userId: viewer.userId,
    };
    await stage(turn.id, "RENDER", async () => {
      const { message } = await runStageHooks("RENDER", { message: outcome.message }, ctx);
      if (message) {
        await upsertAssistantMessage({ workstreamId: workstream.id, message, turnId: turn.id });
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
