// Following a workstream's turns: the events after an offset, ending with the terminal event of
// the turn followed. The POST that starts a turn, `GET …/events?after=N` and `Last-Event-ID` all
// read the same log; the route encodes what this returns (lib/http/event-stream.ts).
import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { turns } from "@/db/schema";
import { AppError } from "@/lib/http/errors";
import { latestOffset } from "@/lib/stream/event-log";
import { followEvents, type WorkstreamSubscription } from "@/lib/stream/follow";
import type { LoggedEvent } from "@/lib/stream/types";
import { isRunningSql } from "./turn-state";

async function runningTurnId(workstreamId: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: turns.id })
    .from(turns)
    .where(and(eq(turns.workstreamId, workstreamId), isRunningSql(turns.state)))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The workstream's events after `after`, until `signal` aborts or the followed turn ends: `turnId`
 * when given (the POST that opened it), else the turn running now. The opener of a turn passes
 * the events it already holds (`known`) and the subscription it made before announcing them.
 */
export function followTurn({
  workstreamId,
  after,
  signal,
  turnId,
  known,
  subscription,
}: {
  workstreamId: string;
  after: number;
  signal: AbortSignal;
  turnId?: string;
  known?: LoggedEvent[];
  subscription?: WorkstreamSubscription;
}): AsyncIterable<LoggedEvent> {
  return followEvents({
    workstreamId,
    after,
    signal,
    openTurnId: () => runningTurnId(workstreamId),
    turnId,
    known,
    subscription,
  });
}

/**
 * The offset to resume after: `after` (the query) wins over `lastEventId` (the header an
 * EventSource resends), else 0. An offset beyond the log is refused with the latest one.
 */
export async function resumeOffset({
  workstreamId,
  after,
  lastEventId,
}: {
  workstreamId: string;
  after?: string | null;
  lastEventId?: string | null;
}): Promise<number> {
  const raw = after ?? lastEventId ?? "0";
  if (!/^\d{1,15}$/.test(raw)) {
    throw new AppError("bad_request:offset");
  }
  const offset = Number(raw);
  const latest = await latestOffset({ workstreamId });
  if (offset > latest) {
    throw new AppError("bad_request:offset", { details: { latestOffset: latest } });
  }
  return offset;
}
