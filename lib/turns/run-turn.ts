// One turn's run, stage by stage (seed 004 names): COMPOSE_REQUEST, SEND_REQUEST,
// STREAM_RESPONSE (with TOOL_CALL inside the bounded tool loop), RENDER, then cleanup that
// always runs. Status events are fed from the bus; hooks may transform, guard or observe.
import { isStepCount, type LanguageModelUsage, streamText, type UIMessageChunk } from "ai";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import { defaultResolveAgent } from "@/lib/agents/resolve-agent";
import type { Viewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { ERROR_SENTENCES } from "@/lib/http/errors";
import { costUsd } from "@/lib/models/pricing";
import { sumUsage, type TokenUsage, tokenUsage } from "@/lib/models/usage";
import { latestOffset } from "@/lib/stream/event-log";
import { TextRechunker } from "@/lib/stream/rechunk";
import { statusChunk } from "@/lib/stream/types";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { bus, stage } from "./bus";
import { composeRequest } from "./context";
import { GuardRefusal, type HookContext, hasStageHooks, hooksOf, runStageHooks } from "./hooks";
import { type MessageMetadata, upsertAssistantMessage, type WorkstreamMessage } from "./messages";
import {
  cancelled,
  describeModelError,
  failed,
  logTurnError,
  type Outcome,
  stopCode,
} from "./outcome";
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
    if (controller.signal.aborted) outcome = cancelled(turn.id, stopCode(controller.signal), null);
    else {
      if (!(error instanceof GuardRefusal)) logTurnError(turn.id, "failed", error);
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
  // Stopped while pending: the turn ends cancelled without the model ever being called.
  controller.signal.throwIfAborted();
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
  const stepUsages: Array<TokenUsage | null> = [];
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
      // A stop rejects the SDK's totals, so each finished model call's usage is kept here.
      onStepEnd: (step) => {
        stepUsages.push(tokenUsage(step.usage));
      },
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
      return ERROR_SENTENCES[describeModelError(error).code];
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

  const { usage, steps } = await turnUsage(turn.id, result, {
    signal: controller.signal,
    stepUsages,
    failed: streamError !== null,
  });
  const servedBy =
    resolved.model.attempts.findLast((attempt) => attempt.outcome === "ok")?.modelId ??
    resolved.model.modelId;
  const cost = costUsd(servedBy, usage);
  // Unknown counts are null, not left out and not zero: the chat shows "—" for them.
  const message = buildMessage(final, turn.assistantMessageId, {
    ...metadata,
    model: servedBy,
    finishedAt: new Date().toISOString(),
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
    reasoningTokens: usage?.reasoningTokens,
    costUsd: cost,
  });
  // Attempts are written with the turn's end, not one row update per model call.
  const record = { usage, costUsd: cost, attempts: resolved.model.attempts };
  if (controller.signal.aborted)
    return cancelled(turn.id, stopCode(controller.signal), message, record);
  if (streamError) {
    logTurnError(turn.id, "model failed", streamError);
    return failed(turn.id, describeModelError(streamError), sawContent ? message : null, record);
  }
  const last = steps.at(-1);
  if (steps.length >= config.turns.maxSteps && last?.finishReason === "tool-calls") {
    return failed(turn.id, { code: "turn:step_limit", retryable: false }, message, record);
  }
  return {
    end: { state: "completed", ...record },
    message,
    closing: [
      { type: "finish", finishReason: "stop", messageMetadata: message?.metadata },
      statusChunk(turn.id, { state: "ready" }),
    ],
  };
}

/**
 * The turn's token usage. A finished turn has the SDK's total; a stopped one has no total (the
 * cut stream never reported one), so it counts the model calls that finished. A rejection of
 * the SDK's promises is logged, unless it is the stop itself or the failure the turn reports.
 */
async function turnUsage(
  turnId: string,
  result: { totalUsage: PromiseLike<LanguageModelUsage>; steps: PromiseLike<StepLike[]> },
  {
    signal,
    stepUsages,
    failed,
  }: { signal: AbortSignal; stepUsages: Array<TokenUsage | null>; failed: boolean },
): Promise<{ usage: TokenUsage | null; steps: StepLike[] }> {
  const unknown = (what: string) => (error: unknown) => {
    const expected = failed || (signal.aborted && error === signal.reason);
    if (!expected) logTurnError(turnId, `${what} unknown`, error);
    return undefined;
  };
  const steps = (await Promise.resolve(result.steps).then(undefined, unknown("steps"))) ?? [];
  if (signal.aborted) return { usage: sumUsage(stepUsages), steps };
  const total = await Promise.resolve(result.totalUsage).then(undefined, unknown("usage"));
  return { usage: total ? tokenUsage(total) : sumUsage(stepUsages), steps };
}

type StepLike = { usage: LanguageModelUsage; finishReason: string };

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
async function finish({ turn, workstream, viewer, emitter, controller }: RunInput, ended: Outcome) {
  let outcome = ended;
  try {
    // A turn whose events the log refused ends failed, whatever it was about to be. Its refused
    // events were never written, so its closing events go at the end of the log: no holes.
    const refused = await emitter.settled().then(
      () => false,
      (error: unknown) => {
        logTurnError(turn.id, "event log write failed", error);
        return true;
      },
    );
    if (refused && outcome.end.state !== "failed") {
      const { usage, costUsd, attempts } = outcome.end;
      outcome = failed(turn.id, { code: "turn:failed" }, outcome.message, {
        usage,
        costUsd,
        attempts,
      });
    }
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
    const first = refused
      ? (await latestOffset({ workstreamId: workstream.id })) + 1
      : emitter.take(outcome.closing.length);
    const events = chunkEvents(turn, first, outcome.closing);
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
    logTurnError(turn.id, "could not be closed", error);
  } finally {
    runRegistry.unregister(turn.id);
    if (!controller.signal.aborted) controller.abort(new StopRequested("disposed"));
  }
}
