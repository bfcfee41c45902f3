// Execution attempts, so a flaky provider costs a retry rather than the turn: a model call that
// fails before emitting anything is retried with backoff, then handed to a fallback model; one that
// fails after emitting content fails as it is (the turn keeps the partial answer). Every call has a
// first-token and an idle timeout, so a bad key or an unreachable server is a clear error, never a
// hang. A 429's `retry-after` sets the wait before the next attempt (up to a bound); a request
// the provider finds longer than the model's context is trimmed of its oldest turns and sent once
// more.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { classifyProviderError, type ModelErrorCode, ModelTimeoutError } from "./provider-errors";

export { ModelTimeoutError };

export type Attempt = {
  modelId: string;
  attempt: number;
  outcome: "ok" | "failed";
  /** The failure's code, never its message: attempts are stored on the turn and listed. */
  error?: ModelErrorCode;
  /** The provider's HTTP status, when it answered with one. */
  providerStatus?: number;
  startedAt: string;
  /** Until the call failed, or (a call that streamed) until its first content arrived. */
  ms: number;
  /** A call that streamed: time to its first content. */
  firstTokenMs?: number;
  /** A call that streamed: until its stream ended (set when it ends; absent if it never did). */
  durationMs?: number;
};

export type ResilienceOptions = {
  primary: LanguageModelV4;
  fallback?: LanguageModelV4;
  attemptsPerModel: number;
  retryBaseMs: number;
  firstTokenTimeoutMs: number;
  idleTimeoutMs: number;
  /** A model call is about to be made (each retry and the fallback are calls of their own). */
  onAttemptStart?: (attempt: { modelId: string; attempt: number }) => void;
  onAttempt?: (attempt: Attempt) => void;
};

const CONTENT = new Set([
  "text-delta",
  "reasoning-delta",
  "tool-input-start",
  "tool-call",
  "file",
  "source",
]);

/** The longest a `retry-after` may make a call wait: beyond it the turn fails instead. */
export const MAX_RETRY_AFTER_MS = 30_000;

/** A 429's `retry-after` in milliseconds (seconds or an HTTP date), when it has one. */
export function retryAfterMs(error: unknown): number | null {
  const headers = (error as { responseHeaders?: Record<string, string> }).responseHeaders;
  const value = headers?.["retry-after"] ?? headers?.["Retry-After"];
  if (!value) return null;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/** Whether the provider refused the request for exceeding the model's context window. */
export function isContextLengthExceeded(error: unknown): boolean {
  const data = (error as { data?: { error?: { code?: unknown } } }).data;
  return data?.error?.code === "context_length_exceeded";
}

/**
 * The prompt without its oldest half of conversation: system messages stay, and what is kept
 * starts at a user message so that no tool result is left without its call. Null when nothing
 * can go (a single exchange).
 */
export function trimmedPrompt(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt | null {
  const system = prompt.filter((message) => message.role === "system");
  const rest = prompt.filter((message) => message.role !== "system");
  let from = Math.floor(rest.length / 2);
  while (from < rest.length && rest[from]?.role !== "user") from++;
  if (from === 0 || from >= rest.length) {
    // Keep the last user message onward, if anything came before it.
    const lastUser = rest.findLastIndex((message) => message.role === "user");
    if (lastUser <= 0) return null;
    from = lastUser;
  }
  return [...system, ...rest.slice(from)];
}

function isRetryable(error: unknown): boolean {
  if (error instanceof ModelTimeoutError) return true;
  const flagged = (error as { isRetryable?: unknown }).isRetryable;
  if (typeof flagged === "boolean") return flagged;
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === "number") return status === 408 || status === 429 || status >= 500;
  return true; // network errors (ECONNREFUSED, resets) have no status: worth another try
}

export function createResilientModel(options: ResilienceOptions): LanguageModelV4 {
  const { primary } = options;
  return {
    specificationVersion: "v4",
    provider: primary.provider,
    modelId: primary.modelId,
    supportedUrls: primary.supportedUrls,
    doGenerate: (call) => primary.doGenerate(call),
    doStream: (call) => streamWithAttempts(options, call),
  } as LanguageModelV4;
}

async function streamWithAttempts(
  options: ResilienceOptions,
  original: LanguageModelV4CallOptions,
): Promise<LanguageModelV4StreamResult> {
  let call = original;
  const models = [options.primary, ...(options.fallback ? [options.fallback] : [])];
  let lastError: unknown = new Error("no model call was made");
  let attemptNumber = 0;
  let trimmed = false;
  for (const model of models) {
    for (let attempt = 1; attempt <= options.attemptsPerModel; attempt++) {
      attemptNumber++;
      // A stop during the backoff ends here: no further call is made.
      call.abortSignal?.throwIfAborted();
      options.onAttemptStart?.({ modelId: model.modelId, attempt: attemptNumber });
      const startedAt = new Date();
      try {
        // The attempt is recorded when the first content arrives; its duration is filled in
        // when the stream ends (the turn writes its attempts with its end, after that).
        let record: Attempt | null = null;
        let endedAt: number | null = null;
        const result = await streamOnce(model, call, options, () => {
          endedAt ??= Date.now();
          if (record) record.durationMs = endedAt - startedAt.getTime();
        });
        const ms = Date.now() - startedAt.getTime();
        record = {
          modelId: model.modelId,
          attempt: attemptNumber,
          outcome: "ok",
          startedAt: startedAt.toISOString(),
          ms,
          firstTokenMs: ms,
          ...(endedAt !== null ? { durationMs: endedAt - startedAt.getTime() } : {}),
        };
        options.onAttempt?.(record);
        return result;
      } catch (error) {
        if (call.abortSignal?.aborted) throw error;
        lastError = error;
        const failure = classifyProviderError(error);
        options.onAttempt?.({
          modelId: model.modelId,
          attempt: attemptNumber,
          outcome: "failed",
          error: failure?.code ?? "model:failed",
          ...(failure?.providerStatus ? { providerStatus: failure.providerStatus } : {}),
          startedAt: startedAt.toISOString(),
          ms: Date.now() - startedAt.getTime(),
        });
        if (isContextLengthExceeded(error) && !trimmed) {
          // Once per request: the builder's estimate was short of the provider's count.
          trimmed = true;
          const prompt = trimmedPrompt(call.prompt);
          if (prompt) {
            call = { ...call, prompt };
            attempt--;
            continue;
          }
        }
        if (!isRetryable(error)) break; // the same call would fail the same way: next model
        if (attempt < options.attemptsPerModel) {
          const backoff = options.retryBaseMs * 2 ** (attempt - 1);
          const asked = retryAfterMs(error);
          if (asked !== null && asked > MAX_RETRY_AFTER_MS) break; // too long to wait in a turn
          await sleep(Math.max(backoff, asked ?? 0), call.abortSignal);
        }
      }
    }
  }
  throw lastError;
}

/** One call: waits for the first content part (errors before it are retryable), then streams. */
async function streamOnce(
  model: LanguageModelV4,
  call: LanguageModelV4CallOptions,
  options: ResilienceOptions,
  onEnd: () => void = () => {},
): Promise<LanguageModelV4StreamResult> {
  const timeout = new AbortController();
  const signals = [timeout.signal, ...(call.abortSignal ? [call.abortSignal] : [])];
  let timer = setTimeout(
    () => timeout.abort(new ModelTimeoutError("first token", options.firstTokenTimeoutMs)),
    options.firstTokenTimeoutMs,
  );
  const timedOut = new Promise<never>((_, reject) => {
    timeout.signal.addEventListener("abort", () => reject(timeout.signal.reason), { once: true });
  });
  timedOut.catch(() => undefined); // observed through Promise.race below
  try {
    const result = await Promise.race([
      model.doStream({ ...call, abortSignal: AbortSignal.any(signals) }),
      timedOut,
    ]);
    const reader = result.stream.getReader();
    const buffered: LanguageModelV4StreamPart[] = [];
    let finished = false;
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next.done) {
        finished = true;
        break;
      }
      if (next.value.type === "error") throw next.value.error;
      buffered.push(next.value);
      if (CONTENT.has(next.value.type)) break;
    }
    clearTimeout(timer);
    const restartIdle = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => timeout.abort(new ModelTimeoutError("idle", options.idleTimeoutMs)),
        options.idleTimeoutMs,
      );
    };
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        for (const part of buffered) controller.enqueue(part);
        if (finished) {
          onEnd();
          controller.close();
        } else restartIdle();
      },
      async pull(controller) {
        try {
          const next = await Promise.race([reader.read(), timedOut]);
          if (next.done) {
            clearTimeout(timer);
            onEnd();
            controller.close();
            return;
          }
          restartIdle();
          controller.enqueue(next.value);
        } catch (error) {
          clearTimeout(timer);
          onEnd();
          controller.enqueue({ type: "error", error });
          controller.close();
        }
      },
      async cancel(reason) {
        clearTimeout(timer);
        onEnd();
        await reader.cancel(reason);
      },
    });
    return { ...result, stream };
  } catch (error) {
    clearTimeout(timer);
    throw error;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
