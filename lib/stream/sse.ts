// Server-Sent Events in the AI SDK 7 UI message stream encoding, with each event's offset as
// its SSE id so a client can resume with `Last-Event-ID` or `?after=`.
import type { LoggedEvent } from "./types";

const encoder = new TextEncoder();

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
  "x-vercel-ai-ui-message-stream": "v1",
} as const;

export function sseResponse(
  events: AsyncIterable<LoggedEvent>,
  { abort, headers = {} }: { abort: AbortController; headers?: Record<string, string> },
): Response {
  const iterator = events[Symbol.asyncIterator]();
  let heartbeat: NodeJS.Timeout | undefined;
  // A client that goes away cancels the stream; nothing may be enqueued after that.
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      heartbeat = setInterval(() => {
        if (!cancelled) controller.enqueue(encoder.encode(": ping\n\n"));
      }, 15_000);
    },
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (cancelled) return;
        if (done) {
          clearInterval(heartbeat);
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
          return;
        }
        controller.enqueue(
          encoder.encode(`id: ${value.offset}\ndata: ${JSON.stringify(value.chunk)}\n\n`),
        );
      } catch (error) {
        clearInterval(heartbeat);
        if (cancelled) return;
        console.error("[sse] follow failed:", error);
        controller.enqueue(
          encoder.encode(
            `data: ${JSON.stringify({ type: "error", errorText: "The live stream was interrupted. Reconnect to continue." })}\n\n`,
          ),
        );
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
