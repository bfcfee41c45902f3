// The HTTP edge of a followed turn: the events a domain function returns, sent as Server-Sent
// Events (lib/stream/sse.ts) for as long as the client stays. A client that goes away stops the
// following, and so does the stream's own cancel.

import { sseResponse } from "@/lib/stream/sse";
import type { LoggedEvent } from "@/lib/stream/types";

export function eventStreamResponse(
  request: Request,
  follow: (signal: AbortSignal) => AsyncIterable<LoggedEvent[]>,
  { headers }: { headers?: Record<string, string> } = {},
): Response {
  const abort = new AbortController();
  request.signal.addEventListener("abort", () => abort.abort(), { once: true });
  return sseResponse(follow(abort.signal), { abort, headers });
}
