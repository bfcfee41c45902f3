// One turn's event stream as the chat sees it: SSE events (each with its offset as `id`, read by
// eventsource-parser, the SSE reader the AI SDK uses) parsed into UI message chunks,
// de-duplicated by offset, and carried across dropped connections by reconnecting to
// `/events?after=<last offset>` with backoff, until the server says `[DONE]`.
// Turn failures arrive as a `data-status` error event (forwarded); the raw `error` chunk before
// it is dropped, so useChat keeps the partial answer and the chat learns of the failure from that
// event instead.
import type { UIMessageChunk } from "ai";
import { type EventSourceMessage, EventSourceParserStream } from "eventsource-parser/stream";
import { ChatRequestError, parseStreamChunk, readRequestError } from "./wire";

export type ConnectionState = "connected" | "reconnecting" | "offline";

export type RetrySettings = {
  /** First backoff delay; doubled per failed attempt up to maxMs, with jitter. */
  baseMs: number;
  maxMs: number;
  /** Consecutive failed attempts before the stream gives up with `network:lost`. */
  maxAttempts: number;
  /** Silence (no event, no heartbeat) after which a connection counts as dropped. */
  stallMs: number;
};

export const DEFAULT_RETRY: RetrySettings = {
  baseMs: 400,
  maxMs: 8_000,
  maxAttempts: 30,
  stallMs: 45_000,
};

export type StreamEnvironment = {
  isOnline: () => boolean;
  /** Waits `ms`, or while offline until the network is back; resolves early on abort. */
  wait: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
};

export type FollowStreamOptions = {
  /** The response to read first; null to connect with `reconnect(after)` straight away. */
  response: Response | null;
  /** The offset the first response starts after, when known (a POST's is not). */
  after: number | null;
  reconnect: (after: number, signal: AbortSignal) => Promise<Response>;
  /** Where to continue when the connection dropped before the first event; null: turn gone. */
  locate: (signal: AbortSignal) => Promise<number | null>;
  signal?: AbortSignal;
  onOffset?: (offset: number) => void;
  onConnection?: (state: ConnectionState) => void;
  /** The turn could not be found again (it ended meanwhile): reload what it left behind. */
  onLost?: () => void;
  retry?: Partial<RetrySettings>;
  environment?: Partial<StreamEnvironment>;
};

export function browserEnvironment(): StreamEnvironment {
  const isOnline = () => typeof navigator === "undefined" || navigator.onLine !== false;
  return {
    isOnline,
    random: Math.random,
    wait: (ms, signal) =>
      new Promise<void>((resolve) => {
        const offline = !isOnline();
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          if (typeof window !== "undefined") window.removeEventListener("online", done);
          resolve();
        };
        // Offline, the browser's "online" event ends the wait; the timer re-checks anyway,
        // because navigator.onLine can be wrong in both directions.
        const timer = setTimeout(done, offline ? Math.max(ms, 5_000) : ms);
        signal.addEventListener("abort", done, { once: true });
        if (offline && typeof window !== "undefined") window.addEventListener("online", done);
      }),
  };
}

export function backoffDelay(attempt: number, settings: RetrySettings, random: () => number) {
  const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

export function followTurnStream(options: FollowStreamOptions): ReadableStream<UIMessageChunk> {
  const local = new AbortController();
  const outer = options.signal;
  const onOuterAbort = () => local.abort(outer?.reason);
  if (outer?.aborted) local.abort(outer.reason);
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  const cleanup = () => outer?.removeEventListener("abort", onOuterAbort);
  const chunks = pump(options, local.signal);

  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) {
          cleanup();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        cleanup();
        controller.error(error);
      }
    },
    cancel(reason) {
      cleanup();
      local.abort(reason);
      chunks.return(undefined).catch((error: unknown) => {
        console.warn("[chat] closing the stream failed:", error);
      });
    },
  });
}

async function* pump(
  options: FollowStreamOptions,
  signal: AbortSignal,
): AsyncGenerator<UIMessageChunk, void> {
  const settings = { ...DEFAULT_RETRY, ...options.retry };
  const env = { ...browserEnvironment(), ...options.environment };
  let last = options.after;
  let response = options.response;
  let failures = 0;

  for (;;) {
    if (response) {
      let done = false;
      try {
        for await (const event of readEvents(response, signal, settings.stallMs)) {
          if (event.data === "[DONE]") {
            done = true;
            break;
          }
          // Only turn events carry an offset; an unnumbered event is the server's notice that
          // its side of the stream broke, and the reconnect below covers it.
          const offset = event.id === undefined ? Number.NaN : Number(event.id);
          if (!Number.isSafeInteger(offset) || (last !== null && offset <= last)) continue;
          last = offset;
          failures = 0;
          options.onOffset?.(offset);
          const chunk = parseStreamChunk(event.data);
          if (chunk && chunk.type !== "error") yield chunk;
        }
      } catch (error) {
        if (signal.aborted) return;
        console.warn("[chat] the turn stream dropped:", error);
      }
      if (signal.aborted) return;
      if (done) {
        if (failures > 0) options.onConnection?.("connected");
        return;
      }
      response = null;
    }

    failures += 1;
    if (failures > settings.maxAttempts) {
      throw new ChatRequestError("network:lost", "The connection to the server was lost.");
    }
    options.onConnection?.(env.isOnline() ? "reconnecting" : "offline");
    // The first reconnect is immediate; each further attempt backs off.
    if (failures > 1) await env.wait(backoffDelay(failures, settings, env.random), signal);
    if (signal.aborted) return;
    try {
      if (last === null) {
        last = await options.locate(signal);
        if (last === null) {
          options.onConnection?.("connected");
          options.onLost?.();
          return;
        }
      }
      const next = await options.reconnect(last, signal);
      if (next.ok && next.body) {
        options.onConnection?.("connected");
        response = next;
        continue;
      }
      const error = await readRequestError(next);
      // A 4xx will not get better by asking again (signed out, gone, bad offset).
      if (next.status >= 400 && next.status < 500 && next.status !== 429) throw error;
      console.warn("[chat] reconnecting failed:", error.code, error.message);
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ChatRequestError && error.status >= 400 && error.status < 500) {
        options.onConnection?.("connected");
        throw error;
      }
      console.warn("[chat] reconnecting failed:", error);
    }
  }
}

/** The response's SSE events; a stall (no bytes for stallMs) ends it like a dropped connection. */
async function* readEvents(
  response: Response,
  signal: AbortSignal,
  stallMs: number,
): AsyncGenerator<EventSourceMessage> {
  if (!response.body) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop("stalled"), stallMs);
  };
  // The stall clock counts bytes, not events: a heartbeat comment is a sign of life too.
  const decoder = new TextDecoder();
  const reader = response.body
    .pipeThrough(
      new TransformStream<Uint8Array, string>({
        transform(bytes, controller) {
          arm();
          controller.enqueue(decoder.decode(bytes, { stream: true }));
        },
      }),
    )
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  const stop = (reason: string) => {
    reader.cancel(reason).catch((error: unknown) => {
      console.warn("[chat] cancelling the response failed:", error);
    });
  };
  const onAbort = () => stop("aborted");
  signal.addEventListener("abort", onAbort, { once: true });
  let ended = false;
  try {
    arm();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) break;
      yield value;
    }
    ended = true;
  } catch (error) {
    ended = true;
    throw error;
  } finally {
    // Left early (after `[DONE]`, or by the consumer): release the connection.
    if (!ended) stop("closed");
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}
