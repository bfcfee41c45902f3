// The live channel as Server-Sent Events: a `ready` event once subscribed, then one `data:` line
// per change, a comment every 20 s to keep proxies from closing an idle connection. The stream
// lasts until the client goes away; EventSource reconnects on its own (retry: 3 s), and the client
// reloads its lists after a reconnect because changes in between are not replayed.
import { getLiveFanout } from "./instance";
import type { LiveTopic } from "./types";

const encoder = new TextEncoder();
const HEARTBEAT_MS = 20_000;

export const LIVE_SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
} as const;

export async function liveResponse({
  topic,
  signal,
}: {
  topic: LiveTopic;
  signal: AbortSignal;
}): Promise<Response> {
  const fanout = await getLiveFanout();
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
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      unsubscribe = fanout.subscribe(topic, (event) => {
        send(`data: ${JSON.stringify(event)}\n\n`);
      });
      heartbeat = setInterval(() => send(": ping\n\n"), HEARTBEAT_MS);
      send(`retry: 3000\ndata: ${JSON.stringify({ type: "ready" })}\n\n`);
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
  return new Response(stream, { headers: LIVE_SSE_HEADERS });
}
