// The answer a run of a turn keeps, once its stream ended: the message (rebuilt from the logged
// chunks when they were transformed or interleaved with consultations), its usage and cost, and
// how the turn ends (completed, stopped, failed, suspended for approvals, out of steps).
import { type LanguageModelUsage, readUIMessageStream, type UIMessageChunk } from "ai";
import { config } from "@/lib/config";
import { costUsd } from "@/lib/models/catalogue";
import { sumUsage, type TokenUsage, tokenUsage } from "@/lib/models/usage";
import { statusChunk } from "@/lib/stream/types";
import type { MessageMetadata, WorkstreamMessage } from "./messages";
import {
  cancelled,
  describeModelError,
  failed,
  logTurnError,
  type Outcome,
  stopCode,
} from "./outcome";
import type { ComposedTurn } from "./stages/compose-request";
import type { TurnRun } from "./stages/run";
import type { StreamedAnswer, StreamingTurn } from "./stages/stream-response";
import { resumedRecord, suspended } from "./suspend";

/** The message a stream of (transformed) chunks makes, as the client assembles it. */
export class RewrittenMessage {
  private controller!: ReadableStreamDefaultController<UIMessageChunk>;
  private readonly last: Promise<WorkstreamMessage | null>;
  constructor(messageId: string, continues?: WorkstreamMessage) {
    const stream = new ReadableStream<UIMessageChunk>({
      start: (controller) => {
        this.controller = controller;
        controller.enqueue({ type: "start", messageId });
      },
    });
    this.last = (async () => {
      let message: WorkstreamMessage | null = null;
      const read = readUIMessageStream<WorkstreamMessage>({ stream, message: continues });
      for await (const next of read) message = next;
      return message;
    })();
  }
  push(chunk: UIMessageChunk): void {
    // The SDK keeps a data chunk as the message's part and updates it in place when a later
    // chunk has its id: the chunk the log is sending must not change under it.
    this.controller.enqueue(chunk.type.startsWith("data-") ? structuredClone(chunk) : chunk);
  }
  async message(): Promise<WorkstreamMessage | null> {
    this.controller.close();
    return this.last;
  }
}

/**
 * The turn's token usage. A finished turn has the SDK's total; a stopped one has no total (the
 * cut stream never reported one), so it counts the model calls that finished. A rejection of
 * the SDK's promises is logged, unless it is the stop itself or the failure the turn reports.
 */
async function turnUsage(
  turnId: string,
  result: { totalUsage: PromiseLike<LanguageModelUsage> },
  {
    signal,
    stepUsages,
    failed,
  }: { signal: AbortSignal; stepUsages: Array<TokenUsage | null>; failed: boolean },
): Promise<TokenUsage | null> {
  const unknown = (what: string) => (error: unknown) => {
    const expected = failed || (signal.aborted && error === signal.reason);
    if (!expected) logTurnError(turnId, `${what} unknown`, error);
    return undefined;
  };
  if (signal.aborted) return sumUsage(stepUsages);
  const total = await Promise.resolve(result.totalUsage).then(undefined, unknown("usage"));
  return total ? tokenUsage(total) : sumUsage(stepUsages);
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

/** How the run ends, with the answer it keeps and what it used. */
export async function answerOutcome(
  run: TurnRun,
  composed: ComposedTurn,
  streaming: StreamingTurn,
  streamed: StreamedAnswer,
): Promise<Outcome> {
  const { turn, controller, resumed } = run;
  const { resolved } = composed;
  const usageOfLead = await turnUsage(turn.id, streamed.result, {
    signal: controller.signal,
    stepUsages: streaming.stepsEnded.map((step) => step.usage),
    failed: streamed.error !== null,
  });
  const servedBy =
    resolved.model.attempts.findLast((attempt) => attempt.outcome === "ok")?.modelId ??
    resolved.model.modelId;
  // A turn that went on after an approval counts what it used before as well.
  // The consultations' tokens and cost are the turn's too.
  const lead = { usage: usageOfLead, costUsd: costUsd(servedBy, usageOfLead) };
  const all = [lead, ...streaming.consultations.records];
  const {
    usage,
    costUsd: cost,
    attempts,
  } = resumedRecord(resumed, {
    usage: sumUsage(all.map((record) => record.usage)),
    costUsd: all.some((record) => record.costUsd === null)
      ? null
      : all.reduce((sum, record) => sum + (record.costUsd ?? 0), 0),
    attempts: resolved.model.attempts,
  });
  // Unknown counts are null, not left out and not zero: the chat shows "—" for them.
  const message = buildMessage(streamed.final, turn.assistantMessageId, {
    ...streaming.metadata,
    model: servedBy,
    finishedAt: new Date().toISOString(),
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
    reasoningTokens: usage?.reasoningTokens,
    costUsd: cost,
  });
  // Attempts are written with the turn's end, not one row update per model call.
  const record = { usage, costUsd: cost, attempts };
  if (controller.signal.aborted)
    return cancelled(turn.id, stopCode(controller.signal), message, record);
  if (streamed.error) {
    logTurnError(turn.id, "model failed", streamed.error);
    return failed(
      turn.id,
      describeModelError(streamed.error),
      streamed.sawContent ? message : null,
      record,
    );
  }
  // The stream ended on tool calls that wait for the owner: the turn is suspended.
  const waiting = suspended(turn.id, message, record);
  if (waiting) return waiting;
  const lastStep = streaming.stepsEnded.at(-1);
  if (
    streaming.stepsUsed(streaming.stepsEnded.length) >= config.turns.maxSteps &&
    lastStep?.finishReason === "tool-calls"
  ) {
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
