/**
 * Timing and failure primitives for the offline model: abortable sleeps, AbortError creation,
 * realistic text chunking (36–72 character deltas on word boundaries), the paced ReadableStream
 * behind `doStream`, and the simulated provider errors.
 */
import { APICallError, type LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { Rng } from "./random";

/** The signal's reason when it is an Error (e.g. TimeoutError), else a DOMException AbortError. */
export function createAbortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException("The offline model request was aborted.", "AbortError");
}

/**
 * Resolves after `ms`: at once for 0, never for Infinity (`[hang]`). Rejects with an AbortError
 * as soon as `signal` aborts.
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(createAbortError(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(createAbortError(signal));
    };
    const timer = Number.isFinite(ms)
      ? setTimeout(() => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        }, ms)
      : undefined;
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * Splits text into deltas of 36–72 characters (only the last may be shorter), preferring to cut
 * right after whitespace and never inside a surrogate pair.
 */
export function chunkText(text: string, rng: Rng, min = 36, max = 72): string[] {
  const chunks: string[] = [];
  for (let pos = 0; pos < text.length; ) {
    let cut = text.length;
    if (cut - pos > max) {
      const target = pos + rng.int(min, max);
      cut = target;
      while (cut > pos + min && !/\s/.test(text.charAt(cut - 1))) cut--;
      if (!/\s/.test(text.charAt(cut - 1))) cut = target;
      if (isHighSurrogate(text.charCodeAt(cut - 1))) cut += cut - pos < max ? 1 : -1;
    }
    chunks.push(text.slice(pos, cut));
    pos = cut;
  }
  return chunks;
}

/** A stream part and how long to wait before emitting it. */
export type TimedStep = { part: LanguageModelV4StreamPart; delayMs: number };

/**
 * A ReadableStream that emits the steps with their delays, lazily (one step per pull).
 * Aborting `signal` errors the stream with an AbortError; cancelling it stops all timers.
 */
export function createTimedStream(
  steps: readonly TimedStep[],
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  const cancelled = new AbortController();
  const stopped = signal ? AbortSignal.any([signal, cancelled.signal]) : cancelled.signal;
  let index = 0;
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      const step = steps[index++];
      if (step === undefined) {
        controller.close();
        return;
      }
      try {
        await sleep(step.delayMs, stopped);
        controller.enqueue(step.part);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel() {
      cancelled.abort(new DOMException("The stream was cancelled.", "AbortError"));
    },
  });
}

/** The error a real provider returns for a temporary outage: HTTP 503, retryable if it says when. */
export function simulatedOutageError(
  modelId: string,
  message: string,
  retryAfterMs?: number,
): APICallError {
  const body = { error: { type: "offline_simulated_error", message } };
  return new APICallError({
    message,
    url: `offline://${modelId}`,
    requestBodyValues: {},
    statusCode: 503,
    responseHeaders: { "retry-after-ms": String(retryAfterMs ?? 0) },
    responseBody: JSON.stringify(body),
    isRetryable: retryAfterMs !== undefined,
    data: body,
  });
}
