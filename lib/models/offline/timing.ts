/**
 * Timing and failure primitives for the offline model: abortable sleeps, AbortError creation,
 * realistic text chunking (36–72 character deltas on word boundaries), the paced ReadableStream
 * behind `doStream`, and the simulated provider errors.
 */
import { APICallError, type LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { Rng } from "./random";

export const MIN_DELTA = 36;
export const MAX_DELTA = 72;

/** The signal's reason when it is an Error (e.g. TimeoutError), else a DOMException AbortError. */
export function createAbortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException("The offline model request was aborted.", "AbortError");
}

/** Resolves after `ms` (immediately for 0); rejects with an AbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(createAbortError(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(createAbortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Never resolves; rejects with an AbortError when `signal` aborts (used by `[hang]`). */
export function waitForAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal?.aborted) reject(createAbortError(signal));
    signal?.addEventListener("abort", () => reject(createAbortError(signal)), { once: true });
  });
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Splits text into deltas of MIN_DELTA–MAX_DELTA characters (only the last may be shorter),
 * preferring to cut right after whitespace and never inside a surrogate pair.
 */
export function chunkText(text: string, rng: Rng, min = MIN_DELTA, max = MAX_DELTA): string[] {
  const chunks: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const remaining = text.length - pos;
    if (remaining <= max) {
      chunks.push(text.slice(pos));
      break;
    }
    const target = rng.int(min, max);
    let cut = -1;
    for (let i = pos + target; i >= pos + min; i--) {
      if (/\s/.test(text.charAt(i - 1))) {
        cut = i;
        break;
      }
    }
    if (cut < 0) cut = pos + target;
    if (isHighSurrogate(text.charCodeAt(cut - 1))) cut += cut - pos < max ? 1 : -1;
    if (text.length - cut > 0 && text.length - cut < min && remaining <= max + min) {
      cut = Math.max(pos + min, text.length - min);
      if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
    }
    chunks.push(text.slice(pos, cut));
    pos = cut;
  }
  return chunks;
}

export type TimedStep =
  | { kind: "part"; part: LanguageModelV4StreamPart; delayMs: number }
  | { kind: "hang" };

/**
 * A ReadableStream that emits the steps with their delays, lazily (one step per pull).
 * Aborting `signal` errors the stream with an AbortError; cancelling it stops all timers.
 */
export function createTimedStream(
  steps: readonly TimedStep[],
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  const internal = new AbortController();
  const forwardAbort = () => internal.abort(signal?.reason);
  signal?.addEventListener("abort", forwardAbort, { once: true });
  const detach = () => signal?.removeEventListener("abort", forwardAbort);
  let index = 0;

  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      const step = steps[index++];
      try {
        if (step === undefined) {
          detach();
          controller.close();
          return;
        }
        if (step.kind === "hang") await waitForAbort(internal.signal);
        else {
          await sleep(step.delayMs, internal.signal);
          controller.enqueue(step.part);
        }
      } catch (error) {
        detach();
        controller.error(error);
      }
    },
    cancel() {
      detach();
      internal.abort(new DOMException("The stream was cancelled.", "AbortError"));
    },
  });
}

/** The error a real provider would return for a temporary outage (HTTP 503, retryable). */
export function simulatedOutageError(input: {
  modelId: string;
  message: string;
  retryAfterMs: number;
  retryable: boolean;
}): APICallError {
  const body = { error: { type: "offline_simulated_error", message: input.message } };
  return new APICallError({
    message: input.message,
    url: `offline://${input.modelId}`,
    requestBodyValues: {},
    statusCode: 503,
    responseHeaders: { "retry-after-ms": String(input.retryAfterMs) },
    responseBody: JSON.stringify(body),
    isRetryable: input.retryable,
    data: body,
  });
}
