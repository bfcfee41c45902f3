// The durable turn event log. One writer per process collects every running turn's events and
// commits them in one multi-row insert per tick (the first event of a turn at once, the rest
// within flushIntervalMs), then fans them out: nothing is sent before it is committed.
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { type Db, getDatabase, getDb } from "@/db/client";
import { turnEvents } from "@/db/schema";
import { config } from "@/lib/config";
import { processSingleton } from "@/lib/server/singleton";
import { getFanout } from "./fanout-instance";
import type { LoggedChunk, LoggedEvent } from "./types";

type Pending = { event: LoggedEvent; resolve: () => void; reject: (error: unknown) => void };

class EventWriter {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  append(event: LoggedEvent, { immediate = false } = {}): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
      this.pending.push({ event, resolve, reject });
    });
    if (immediate) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), config.turns.flushIntervalMs);
    return done;
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    // One flush at a time; events arriving meanwhile go in the next one.
    while (this.flushing) await this.flushing;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.flushing = this.commit(batch).finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private async commit(batch: Pending[]): Promise<void> {
    const events = batch.map((item) => item.event);
    try {
      const db = await getDb();
      await db.insert(turnEvents).values(
        events.map((event) => ({
          workstreamId: event.workstreamId,
          offset: event.offset,
          turnId: event.turnId,
          chunk: event.chunk,
        })),
      );
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    try {
      await (await getFanout()).publish(events);
    } catch (error) {
      // Committed but not announced: followers still catch up from the log on their next poll.
      console.error("[event-log] fan-out failed:", error);
    }
    for (const item of batch) item.resolve();
  }
}

const holder = processSingleton<{ writer?: EventWriter }>("writer", () => ({}));

export function eventWriter(): EventWriter {
  holder.writer ??= new EventWriter();
  return holder.writer;
}

export async function latestOffset({ workstreamId }: { workstreamId: string }): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ offset: sql<string | number | null>`max(${turnEvents.offset})` })
    .from(turnEvents)
    .where(eq(turnEvents.workstreamId, workstreamId));
  return Number(row?.offset ?? 0);
}

export async function readEvents({
  workstreamId,
  after,
  limit = 500,
}: {
  workstreamId: string;
  after: number;
  limit?: number;
}): Promise<LoggedEvent[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(turnEvents)
    .where(and(eq(turnEvents.workstreamId, workstreamId), gt(turnEvents.offset, after)))
    .orderBy(asc(turnEvents.offset))
    .limit(limit);
  return rows.map((row) => ({
    workstreamId: row.workstreamId,
    offset: Number(row.offset),
    turnId: row.turnId,
    chunk: row.chunk as LoggedChunk,
  }));
}

export async function readTurnEvents({ turnId }: { turnId: string }): Promise<LoggedEvent[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(turnEvents)
    .where(eq(turnEvents.turnId, turnId))
    .orderBy(asc(turnEvents.offset));
  return rows.map((row) => ({
    workstreamId: row.workstreamId,
    offset: Number(row.offset),
    turnId: row.turnId,
    chunk: row.chunk as LoggedChunk,
  }));
}

/**
 * Appends events from a process that does not hold the turn's lease (the reaper, cancelling a
 * suspended turn): offsets are allocated under a per-workstream advisory lock.
 */
export async function appendEventsLocked({
  workstreamId,
  turnId,
  chunks,
  tx,
}: {
  workstreamId: string;
  turnId: string;
  chunks: LoggedChunk[];
  tx?: Db;
}): Promise<LoggedEvent[]> {
  const write = async (db: Db) => {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext(${workstreamId}))`);
    const [row] = await db
      .select({ offset: sql<string | number | null>`max(${turnEvents.offset})` })
      .from(turnEvents)
      .where(eq(turnEvents.workstreamId, workstreamId));
    const start = Number(row?.offset ?? 0);
    const events = chunks.map((chunk, index) => ({
      workstreamId,
      turnId,
      offset: start + index + 1,
      chunk,
    }));
    if (events.length) await db.insert(turnEvents).values(events);
    return events;
  };
  const events = tx
    ? await write(tx)
    : await (await getDb()).transaction((inner) => write(inner as unknown as Db));
  if (!tx) await (await getFanout()).publish(events);
  return events;
}

/** For tests and shutdown: commit whatever is buffered now. */
export async function flushEventLog(): Promise<void> {
  await getDatabase();
  await eventWriter().flush();
}
