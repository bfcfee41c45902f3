// The one Server-Sent Events encoder. A workstream's turn events go out in the AI SDK 7 UI
// message stream encoding, each with its offset as the SSE id so a client can resume with
// `Last-Event-ID` or `?after=`. The live channel sends a `ready` event once subscribed, then one
// event per change until the client goes away; EventSource reconnects on its own (retry: 3 s),
// and the client reloads its lists after a reconnect because changes in between are not replayed.
import "server-only";
import { errorClass } from "@/lib/kernel/error-class";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { getFanout } from "./fanout-instance";
import type { LiveTopic } from "./live";
import type { LoggedEvent } from "./types";

const encoder = new TextEncoder();

const STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
} as const;

export const SSE_HEADERS = { ...STREAM_HEADERS, "x-vercel-ai-ui-message-stream": "v1" } as const;

/** One SSE event's text: an optional id, then the JSON (or literal) data line. */
function sseText(data: unknown, id?: number): string {
  const body = typeof data === "string" ? data : JSON.stringify(data);
  return `${id === undefined ? "" : `id: ${id}\n`}data: ${body}\n\n`;
}

function sseEvent(data: unknown, id?: number): Uint8Array {
  return encoder.encode(sseText(data, id));
}

const PING = encoder.encode(": ping\n\n");

export function sseResponse(
  events: AsyncIterable<LoggedEvent[]>,
  { abort, headers = {} }: { abort: AbortController; headers?: Record<string, string> },
): Response {
  const iterator = events[Symbol.asyncIterator]();
  let heartbeat: NodeJS.Timeout | undefined;
  // A client that goes away cancels the stream; nothing may be enqueued after that.
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      heartbeat = setInterval(() => {
        if (!cancelled) controller.enqueue(PING);
      }, 15_000);
    },
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (cancelled) return;
        if (done) {
          clearInterval(heartbeat);
          controller.enqueue(sseEvent("[DONE]"));
          controller.close();
          return;
        }
        // A batch (the events one commit announced, or one log read) goes out in one write.
        let text = "";
        for (const event of value) text += sseText(event.chunk, event.offset);
        controller.enqueue(encoder.encode(text));
      } catch (error) {
        clearInterval(heartbeat);
        if (cancelled) return;
        // The class only: a database error's message carries its query's parameters.
        console.error(`[sse] follow failed (${errorClass(error)})`);
        const chunk = { type: "error", errorText: ERROR_SENTENCES["internal:stream"] };
        controller.enqueue(sseEvent(chunk));
        controller.close();
      }
    },
    async cancel() {
      cancelled = true;
      clearInterval(heartbeat);
      abort.abort();
      await iterator.return?.(undefined);
    },
  });
  return new Response(stream, { headers: { ...SSE_HEADERS, ...headers } });
}

/** The live channel of `topic` until `signal` aborts (the client went away). */
export async function liveResponse({
  topic,
  signal,
}: {
  topic: LiveTopic;
  signal: AbortSignal;
}): Promise<Response> {
  const fanout = await getFanout();
  let unsubscribe: () => void = () => {};
  let heartbeat: NodeJS.Timeout | undefined;
  // Nothing may be enqueued once the client has gone.
  let closed = false;
  const stop = () => {
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (bytes: Uint8Array) => {
        if (!closed) controller.enqueue(bytes);
      };
      unsubscribe = fanout.subscribeLive(topic, (event) => send(sseEvent(event)));
      heartbeat = setInterval(() => send(PING), 20_000);
      send(encoder.encode("retry: 3000\n"));
      send(sseEvent({ type: "ready" }));
      signal.addEventListener("abort", () => {
        if (closed) return;
        stop();
        controller.close();
      });
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, { headers: STREAM_HEADERS });
}
