// Server-Sent Events in the AI SDK 7 UI message stream encoding, with each event's offset as
// its SSE id so a client can resume with `Last-Event-ID` or `?after=`.
import { ERROR_SENTENCES } from "@/lib/http/errors";
import { errorClass } from "@/lib/server/error-class";
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
        // The class only: a database error's message carries its query's parameters.
        console.error(`[sse] follow failed (${errorClass(error)})`);
        const chunk = { type: "error", errorText: ERROR_SENTENCES["internal:stream"] };
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
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
