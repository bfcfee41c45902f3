// The durable turn event log. One writer per process collects every running turn's events and
// commits them in one multi-row insert per tick (the first event of a turn at once, the rest
// within flushIntervalMs), then fans them out: nothing is sent before it is committed. A batch
// the database refuses is retried turn by turn, so one turn's bad event never fails another's.
// A turn's opening and its close write their events inside their own transaction instead
// (`writeTurnEvents`).
import "server-only";
import { and, asc, eq, gt, type SQL, sql } from "drizzle-orm";
import { type Db, executePrepared, getDatabase, getDb, type Tx, transaction } from "@/db/client";
import { turnEvents } from "@/db/schema";
import { config } from "@/lib/config";
import { errorClass } from "@/lib/kernel/error-class";
import { processSingleton } from "@/lib/kernel/singleton";
import { toStorableJson } from "@/lib/text/storable";
import type { Announcement } from "./fanout";
import { getFanout } from "./fanout-instance";
import type { LoggedChunk, LoggedEvent } from "./types";

/**
 * The database refused a turn's events. It names the turn and the error's class only: the
 * database error itself carries the query's parameters, other turns' rows among them.
 */
export class EventLogWriteError extends Error {
  constructor(
    readonly turnId: string,
    readonly causeClass: string,
  ) {
    super(`The event log refused the events of turn ${turnId} (${causeClass}).`);
    this.name = "EventLogWriteError";
  }
}

type Pending = {
  event: LoggedEvent;
  /** The turn becomes active (with its model) in the statement that writes this event. */
  activates?: string;
  resolve: () => void;
  reject: (error: unknown) => void;
};

// Refused turns are remembered so none of their later events is written: those would leave a
// hole where the refused ones should be. Bounded, since refusals are rare and turns end.
const MAX_REFUSED = 1_000;

class EventWriter {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly refused = new Map<string, EventLogWriteError>();

  append(
    event: LoggedEvent,
    { immediate = false, activates }: { immediate?: boolean; activates?: string } = {},
  ): Promise<void> {
    // The event's chunk is storable already: TurnLog numbers only storable chunks.
    const done = new Promise<void>((resolve, reject) => {
      this.pending.push({ event, activates, resolve, reject });
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

  /**
   * Hands over `turnId`'s events that no flush has taken yet, for the turn's closing transaction to
   * write. Waits for a flush in flight first: its events have lower offsets and must be committed
   * before the turn's terminal event is.
   */
  async takePending(turnId: string): Promise<Pending[]> {
    while (this.flushing) await this.flushing;
    const taken = this.pending.filter((item) => item.event.turnId === turnId);
    if (taken.length === 0) return [];
    this.pending = this.pending.filter((item) => item.event.turnId !== turnId);
    for (const item of taken) item.resolve();
    return taken;
  }

  private async commit(batch: Pending[]): Promise<void> {
    const live: Pending[] = [];
    for (const item of batch) {
      const refusal = this.refused.get(item.event.turnId);
      if (refusal) item.reject(refusal);
      else live.push(item);
    }
    if (live.length === 0) return;
    let committed: Pending[];
    let announced = false;
    try {
      announced = await insertEvents(live);
      committed = live;
    } catch (error) {
      committed = await this.commitTurnByTurn(live, error);
    }
    if (committed.length === 0) return;
    const events = committed.map((item) => item.event);
    try {
      await (await getFanout()).publish(events, { announced });
    } catch (error) {
      // Committed but not announced: followers still catch up from the log on their next poll.
      console.error(`[event-log] fan-out failed (${errorClass(error)})`);
    }
    for (const item of committed) item.resolve();
  }

  /** After a refused batch: each turn's events in a statement of their own. */
  private async commitTurnByTurn(batch: Pending[], batchError: unknown): Promise<Pending[]> {
    const byTurn = new Map<string, Pending[]>();
    for (const item of batch) {
      const group = byTurn.get(item.event.turnId) ?? [];
      group.push(item);
      byTurn.set(item.event.turnId, group);
    }
    if (byTurn.size > 1) {
      console.warn(
        `[event-log] a batch of ${batch.length} events from ${byTurn.size} turns was refused ` +
          `(${errorClass(batchError)}); retrying turn by turn`,
      );
    }
    const committed: Pending[] = [];
    for (const [turnId, group] of byTurn) {
      try {
        // A single-turn batch already failed alone: no point asking again.
        if (byTurn.size === 1) throw batchError;
        await insertEvents(group);
        committed.push(...group);
      } catch (error) {
        const refusal = new EventLogWriteError(turnId, errorClass(error));
        console.error(
          `[event-log] turn ${turnId}: its events were refused (${refusal.causeClass})`,
        );
        this.refuse(turnId, refusal);
        for (const item of group) item.reject(refusal);
      }
    }
    return committed;
  }

  private refuse(turnId: string, refusal: EventLogWriteError): void {
    this.refused.set(turnId, refusal);
    for (const oldest of this.refused.keys()) {
      if (this.refused.size <= MAX_REFUSED) break;
      this.refused.delete(oldest);
    }
  }
}

/**
 * One statement: the events, the turns they make active (pending → active, with model) and the
 * hint to other servers, delivered on commit. Its text never changes, so Postgres prepares it
 * once per connection. Returns whether the hint went with it.
 */
async function insertEvents(items: Pending[]): Promise<boolean> {
  const _db = await getDb();
  const events = items.map((item) => item.event);
  const announcement = (await getFanout()).announcement(events);
  const activations = items.filter((item) => item.activates !== undefined);
  await executePrepared(sql`with activated as (
      update "turns" as t set "state" = 'active', "model" = v.model, "started_at" = now(),
        "updated_at" = now()
      from unnest(${sql.param(activations.map((item) => item.event.turnId))}::text[],
        ${sql.param(activations.map((item) => item.activates ?? ""))}::text[]) as v(id, model)
      where t."id" = v.id and t."state" = 'pending'
    ), logged as (${insertEventsSql(events, sql`true`)})
    select ${announceSql(announcement, sql`true`)}`);
  return announcement !== null;
}

/**
 * `pg_notify(channel, message)` when `announcement` is given and `condition` holds; a constant
 * text either way, for the batch statement that announces what it commits.
 */
function announceSql(announcement: Announcement | null, condition: SQL): SQL {
  return sql`case when ${announcement?.channel ?? null}::text is not null and ${condition}
    then pg_notify(${announcement?.channel ?? null}, ${announcement?.message ?? null}) end`;
}

const holder = processSingleton<{ writer?: EventWriter }>("writer", () => ({}));

export function eventWriter(): EventWriter {
  holder.writer ??= new EventWriter();
  return holder.writer;
}

/**
 * One turn's side of the log, held by the process that leases the turn: it numbers the turn's
 * events with the workstream's next offsets (nobody else writes to a workstream with an open
 * turn) and hands them to the batching writer. A refused write surfaces on `failure`.
 */
export class TurnLog {
  private last: Promise<void> = Promise.resolve();
  failure: unknown = null;
  private constructor(
    private readonly turn: { id: string; workstreamId: string },
    private nextOffset: number,
  ) {}

  /** The log of a turn whose events go after `lastOffset`, the workstream's last one. */
  static after(turn: { id: string; workstreamId: string }, lastOffset: number): TurnLog {
    return new TurnLog(turn, lastOffset + 1);
  }

  /** Numbers `chunks` for a statement that writes them itself (opening or ending a turn). */
  reserve(chunks: LoggedChunk[]): LoggedEvent[] {
    return this.numbered(chunks);
  }

  private activation: string | undefined;
  /** The model of an activation no flush carried: the closing transaction makes the turn active. */
  activatesOnClose: string | undefined;

  /** The turn is active from the statement that writes its next event: no write of its own. */
  activate(model: string): void {
    this.activation = model;
  }

  /**
   * Hands `chunk` to the writer. Settles once it is committed and sent, or refused (the refusal
   * is kept on `failure`); never rejects.
   */
  append(chunk: LoggedChunk, { immediate = false } = {}): Promise<void> {
    const event = this.numbered([chunk])[0] as LoggedEvent;
    const activates = this.activation;
    this.activation = undefined;
    const written = eventWriter().append(event, { immediate, activates });
    this.last = written;
    return written.catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  /**
   * The events the turn's closing transaction writes: whatever the writer still holds for this
   * turn, then the chunks `closing` gives once it is known whether the log refused any. When the log refused some of this turn's events, those were never
   * written and its later ones were dropped, so the closing events go at the log's end instead.
   */
  async closingEvents(
    closing: (refused: boolean) => LoggedChunk[] | Promise<LoggedChunk[]>,
  ): Promise<LoggedEvent[]> {
    const taken = await eventWriter().takePending(this.turn.id);
    const held = taken.map((item) => item.event);
    this.activatesOnClose ??= taken.find((item) => item.activates)?.activates ?? this.activation;
    await this.last.catch(() => undefined);
    const chunks = await closing(this.failure !== null);
    if (this.failure) {
      this.nextOffset = (await latestOffset({ workstreamId: this.turn.workstreamId })) + 1;
      return this.numbered(chunks);
    }
    return [...held, ...this.numbered(chunks)];
  }

  /**
   * Model and tool output may hold text Postgres cannot store; the log, the live stream and the
   * client all see the same storable chunk, made so once, here.
   */
  private numbered(chunks: LoggedChunk[]): LoggedEvent[] {
    return chunks.map((chunk) => ({
      workstreamId: this.turn.workstreamId,
      turnId: this.turn.id,
      offset: this.nextOffset++,
      chunk: toStorableJson(chunk),
    }));
  }
}

/**
 * `insert into turn_events … where <condition>` for the batch statement. The events travel as
 * four arrays, so the statement's text is the same for any number of them.
 */
function insertEventsSql(events: LoggedEvent[], condition: SQL): SQL {
  return sql`insert into "turn_events" ("workstream_id", "offset", "turn_id", "chunk")
    select v.w, v.o, v.t, v.c::jsonb
    from unnest(${sql.param(events.map((event) => event.workstreamId))}::text[],
      ${sql.param(events.map((event) => event.offset))}::bigint[],
      ${sql.param(events.map((event) => event.turnId))}::text[],
      ${sql.param(events.map((event) => JSON.stringify(event.chunk)))}::text[]) as v(w, o, t, c)
    where ${condition}`;
}

/**
 * Writes a turn's events inside the caller's transaction (the turn's opening and its close),
 * with the hint to other servers, which Postgres delivers on commit. The caller fans them out
 * once committed (`publish(events, { announced })`); this module stays the log's only writer.
 */
export async function writeTurnEvents(
  tx: Tx,
  events: LoggedEvent[],
): Promise<{ announced: boolean }> {
  if (events.length === 0) return { announced: false };
  await tx.insert(turnEvents).values(
    events.map((event) => ({
      workstreamId: event.workstreamId,
      offset: event.offset,
      turnId: event.turnId,
      chunk: event.chunk,
    })),
  );
  const announcement = (await getFanout()).announcement(events);
  if (announcement) {
    await tx.execute(sql`select pg_notify(${announcement.channel}, ${announcement.message})`);
  }
  return { announced: announcement !== null };
}

/** The workstream's last offset, read inside the caller's transaction. */
export async function lastOffsetIn(tx: Tx, workstreamId: string): Promise<number> {
  const [row] = await tx
    .select({ offset: sql<string | number | null>`max(${turnEvents.offset})` })
    .from(turnEvents)
    .where(eq(turnEvents.workstreamId, workstreamId));
  return Number(row?.offset ?? 0);
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
      chunk: toStorableJson(chunk),
    }));
    if (events.length) await db.insert(turnEvents).values(events);
    return events;
  };
  const events = tx ? await write(tx) : await transaction((inner) => write(inner));
  if (!tx) await (await getFanout()).publish(events);
  return events;
}

/** For tests and shutdown: commit whatever is buffered now. */
export async function flushEventLog(): Promise<void> {
  await getDatabase();
  await eventWriter().flush();
}
