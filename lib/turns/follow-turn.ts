// Following a workstream's turns over SSE: the POST response, `GET …/events?after=N` and
// `Last-Event-ID` all serve the same encoding from the same log.
import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { turns } from "@/db/schema";
import { AppError } from "@/lib/http/errors";
import { latestOffset } from "@/lib/stream/event-log";
import { followEvents, type WorkstreamSubscription } from "@/lib/stream/follow";
import { sseResponse } from "@/lib/stream/sse";
import type { LoggedEvent } from "@/lib/stream/types";
import { RUNNING_STATES } from "./turn-store";

async function openTurnId(workstreamId: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: turns.id })
    .from(turns)
    .where(and(eq(turns.workstreamId, workstreamId), inArray(turns.state, RUNNING_STATES)))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The SSE response following a workstream from `after`. It follows `turnId` when given (the POST
 * that opened it), else the turn open now; it ends with that turn's terminal event.
 */
export function followResponse({
  workstreamId,
  after,
  request,
  headers,
  turnId,
  known,
  subscription,
}: {
  workstreamId: string;
  after: number;
  request: Request;
  headers?: Record<string, string>;
  turnId?: string;
  known?: LoggedEvent[];
  subscription?: WorkstreamSubscription;
}): Response {
  const abort = new AbortController();
  request.signal.addEventListener("abort", () => abort.abort(), { once: true });
  const events = followEvents({
    workstreamId,
    after,
    signal: abort.signal,
    openTurnId: () => openTurnId(workstreamId),
    turnId,
    known,
    subscription,
  });
  return sseResponse(events, { abort, headers });
}

/** Parses `?after=` / `Last-Event-ID`; an offset beyond the log is refused. */
export async function resumeOffset({
  workstreamId,
  request,
}: {
  workstreamId: string;
  request: Request;
}): Promise<number> {
  const url = new URL(request.url);
  const raw = url.searchParams.get("after") ?? request.headers.get("last-event-id") ?? "0";
  if (!/^\d{1,15}$/.test(raw)) {
    throw new AppError("bad_request:offset");
  }
  const after = Number(raw);
  const latest = await latestOffset({ workstreamId });
  if (after > latest) {
    throw new AppError("bad_request:offset", {
      details: { latestOffset: latest },
    });
  }
  return after;
}
