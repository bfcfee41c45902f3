// Following a workstream's turns: the events after an offset, ending with the terminal event of
// the turn followed. The POST that starts a turn, `GET …/events?after=N` and `Last-Event-ID` all
// read the same log; the route encodes what this returns (lib/http/event-stream.ts).
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { executePrepared, getDb } from "@/db/client";
import { isRunningSql, RUNNING_STATES_LIST, turns } from "@/db/schema";
import type { Viewer } from "@/lib/auth/viewer";
import { AppError } from "@/lib/kernel/errors";
import { getFanout } from "@/lib/stream/fanout-instance";
import {
  type FollowOptions,
  followEvents,
  READ_LIMIT,
  WorkstreamSubscription,
} from "@/lib/stream/follow";
import type { LoggedChunk, LoggedEvent } from "@/lib/stream/types";

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
  first,
}: {
  workstreamId: string;
  after: number;
  signal: AbortSignal;
  turnId?: string;
  known?: LoggedEvent[];
  subscription?: WorkstreamSubscription;
  first?: FollowOptions["first"];
}): AsyncIterable<LoggedEvent[]> {
  // A client may leave before the stream is ever read: the subscription must not outlive it.
  if (subscription) signal.addEventListener("abort", () => subscription.close(), { once: true });
  return followEvents({
    workstreamId,
    after,
    signal,
    openTurnId: () => runningTurnId(workstreamId),
    turnId,
    known,
    subscription,
    first,
  });
}

/** A follower's start, read in one statement after subscribing: see openFollow. */
export type FollowStart = {
  workstreamId: string;
  after: number;
  subscription: WorkstreamSubscription;
  first: NonNullable<FollowOptions["first"]>;
};

type FollowStartRow = {
  /** Null when no workstream of the viewer's matched. */
  latest: number | string | null;
  running: string | null;
  events: Array<{ offset: number | string; turn_id: string; chunk: LoggedChunk }> | string | null;
};

/**
 * Starts following a workstream the viewer owns, after an offset (`after`, the query, wins over
 * `lastEventId`, the header an EventSource resends; else 0). It subscribes first, then reads in
 * one statement the ownership, the log's last offset (an offset beyond it is refused), the
 * running turn and the first page of events, so nothing committed in between is missed.
 */
export async function openFollow({
  viewer,
  workstreamId,
  after,
  lastEventId,
}: {
  viewer: Viewer;
  workstreamId: string;
  after?: string | null;
  lastEventId?: string | null;
}): Promise<FollowStart> {
  const offset = parseOffset(after ?? lastEventId ?? "0");
  if (offset === null) throw new AppError("bad_request:offset");
  const subscription = new WorkstreamSubscription(await getFanout(), workstreamId);
  try {
    const _db = await getDb();
    const [row] = await executePrepared<FollowStartRow>(sql`
        with followed as (
          select
            (select coalesce(max(e."offset"), 0) from "turn_events" e
              where e."workstream_id" = w."id") as latest,
            (select t."id" from "turns" t
              where t."workstream_id" = w."id" and t."state" in (${RUNNING_STATES_LIST})
              limit 1) as running,
            (select json_agg(json_build_object('offset', p."offset", 'turn_id', p."turn_id",
                'chunk', p."chunk") order by p."offset")
              from (select "offset", "turn_id", "chunk" from "turn_events"
                where "workstream_id" = w."id" and "offset" > ${offset}
                order by "offset" limit ${READ_LIMIT}) p) as events
          from "workstreams" w
          where w."id" = ${workstreamId} and w."organization_id" = ${viewer.organizationId}
            and w."owner_id" = ${viewer.userId}
        )
        select f.* from (select 1) as one left join followed f on true`);
    if (!row || row.latest === null) throw new AppError("not_found:workstream");
    const latest = Number(row.latest);
    if (offset > latest) {
      throw new AppError("bad_request:offset", { details: { latestOffset: latest } });
    }
    const rawEvents = typeof row.events === "string" ? JSON.parse(row.events) : row.events;
    const events: LoggedEvent[] = (rawEvents ?? []).map(
      (event: { offset: number | string; turn_id: string; chunk: LoggedChunk }) => ({
        workstreamId,
        offset: Number(event.offset),
        turnId: event.turn_id,
        chunk: event.chunk,
      }),
    );
    return {
      workstreamId,
      after: offset,
      subscription,
      first: { runningTurnId: row.running, events },
    };
  } catch (error) {
    subscription.close();
    throw error;
  }
}

/** The offset asked for, or null when it is not one. */
function parseOffset(raw: string): number | null {
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}
