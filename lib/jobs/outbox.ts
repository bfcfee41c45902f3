// The outbox's sender: events written in a transaction (a turn's post-turn event) are handed to
// the configured engine after commit. A row stays pending until the engine has it, so a crash
// between commit and hand-over loses nothing: any process's next pass picks it up. Rows are
// claimed with FOR UPDATE SKIP LOCKED (and, for the network send, a short claim lease), so two
// processes never hand over the same row at the same time; the event id is also Inngest's
// de-duplication id, so a re-send after a crash is harmless.
import "server-only";
import { sql } from "drizzle-orm";
import { executePrepared, type Tx, transaction } from "@/db/client";
import type { JobEvent } from "./define";

export type Delivery =
  /**
   * Into the embedded runner's job table, atomically with marking the rows sent: `adopt` does it
   * in one statement (null: it cannot, for these events), `enqueue` inside the outbox's
   * transaction otherwise (its `committed` is called once that transaction has committed).
   */
  | {
      kind: "embedded";
      /** Starts or wakes the runner for the jobs it added itself. */
      adopt(events: JobEvent[]): Promise<number | null>;
      enqueue(tx: Tx, events: JobEvent[]): Promise<{ committed(): void }>;
      /** After `enqueue`'s transaction committed: the runner looks for the jobs it added. */
      enqueued(): void;
    }
  /** To Inngest's event API; `send` must give up by itself (a timeout) rather than hang. */
  | { kind: "inngest"; send(events: JobEvent[]): Promise<void> };

export type OutboxOptions = {
  delivery: Delivery;
  clock?: { now(): number };
  /** How often pending rows are looked for without a wake (other processes, failed sends). */
  pollIntervalMs?: number;
  batchSize?: number;
  /** How long a send may hold its rows before another pass may try them. */
  claimMs?: number;
  backoffMs?: (attempts: number) => number;
};

export type Outbox = {
  /** Hands over every pending row that is due; resolves with how many were handed over. */
  drain(): Promise<number>;
  /**
   * Drains soon (coalesced): called after a commit that wrote to the outbox. Given the events
   * that commit wrote, the embedded runner takes them over by id, without reading the outbox
   * first (rows written elsewhere wait for the poll).
   */
  wake(events?: readonly JobEvent[]): void;
  start(): void;
  stop(): Promise<void>;
};

type PendingRow = {
  id: string;
  name: string;
  data: unknown;
  created_at: Date | string;
  /** A time other than the creation (a delayed event), else null. */
  ts: Date | string | null;
  attempts: number;
};

const DEFAULT_BACKOFF = (attempts: number) => Math.min(60_000, 1_000 * 2 ** attempts);
/** Handed-over rows are kept a day (to look into), then deleted. */
const KEEP_DISPATCHED_MS = 86_400_000;

function toEvent(row: PendingRow): JobEvent {
  const ts = new Date(row.ts ?? row.created_at).getTime();
  return { id: row.id, name: row.name, data: row.data, ts };
}

export function createOutbox({
  delivery,
  clock = Date,
  pollIntervalMs = 2_000,
  batchSize = 100,
  claimMs = 30_000,
  backoffMs = DEFAULT_BACKOFF,
}: OutboxOptions): Outbox {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  let again: Promise<number> | null = null;
  let stopped = true;
  let lastCleanup = 0;
  // Events this process committed since the last pass, handed over by id.
  let written: JobEvent[] = [];
  // Someone asked for the outbox to be read (a poll, a drain, a wake without its events).
  let readAsked = false;

  const at = (ms: number) => new Date(clock.now() + ms).toISOString();

  async function drainEmbedded(embedded: Extract<Delivery, { kind: "embedded" }>): Promise<number> {
    // Read without locking, then taken over in one statement that locks what is still pending.
    const pending = await executePrepared<PendingRow>(sql`
      select "id", "name", "data", "created_at", "ts", "attempts" from "job_events"
      where "dispatched_at" is null and "next_attempt_at" <= ${at(0)}::timestamptz
      order by "created_at" limit ${batchSize}`);
    if (!pending.length) return 0;
    const taken = await embedded.adopt(pending.map(toEvent));
    if (taken !== null) return taken;
    const adopted = await enqueueInTransaction(embedded);
    if (adopted) embedded.enqueued();
    // Rows another process holds are left to it: only what was taken here counts toward another pass.
    return adopted;
  }

  /**
   * The general hand-over, one transaction: the pending rows are locked and marked handed over in
   * one statement, then their jobs are enqueued; a failed enqueue rolls the marks back.
   */
  async function enqueueInTransaction(
    embedded: Extract<Delivery, { kind: "embedded" }>,
  ): Promise<number> {
    let committed = () => {};
    const taken = await transaction(async (tx) => {
      const result = await tx.execute(sql`
        update "job_events" set "dispatched_at" = ${at(0)}::timestamptz
        where "id" in (select "id" from "job_events"
          where "dispatched_at" is null and "next_attempt_at" <= ${at(0)}::timestamptz
          order by "created_at" limit ${batchSize} for update skip locked)
        returning "id", "name", "data", "created_at", "ts", "attempts"`);
      const pending = (
        Array.isArray(result) ? result : (result as { rows: unknown[] }).rows
      ) as PendingRow[];
      if (!pending.length) return 0;
      // In the order they were written (an update returns rows in no particular order).
      const events = pending
        .toSorted((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime())
        .map(toEvent);
      ({ committed } = await embedded.enqueue(tx, events));
      return pending.length;
    });
    committed();
    return taken;
  }

  async function drainToInngest(send: Extract<Delivery, { kind: "inngest" }>): Promise<number> {
    // The claim pushes the rows' next attempt out, so a send that hangs or a process that dies
    // mid-send leaves them to be tried again later instead of stuck.
    const pending = await executePrepared<PendingRow>(sql`
      update "job_events" set "next_attempt_at" = ${at(claimMs)}::timestamptz
      where "id" in (select "id" from "job_events"
        where "dispatched_at" is null and "next_attempt_at" <= ${at(0)}::timestamptz
        order by "created_at" limit ${batchSize} for update skip locked)
      returning "id", "name", "data", "created_at", "ts", "attempts"`);
    if (!pending.length) return 0;
    // One array parameter (event ids are UUIDs), so the statement's text stays the same.
    const ids = sql`${`{${pending.map((row) => row.id).join(",")}}`}::text[]`;
    try {
      await send.send(pending.map(toEvent));
    } catch (error) {
      const attempts = Math.max(...pending.map((row) => row.attempts)) + 1;
      await executePrepared(sql`
        update "job_events" set "attempts" = "attempts" + 1,
          "next_attempt_at" = ${at(backoffMs(attempts))}::timestamptz,
          "last_error" = ${error instanceof Error ? error.name : "Error"}
        where "id" = any(${ids})`);
      console.warn(`[jobs] sending ${pending.length} event(s) to Inngest failed; will retry`);
      return 0;
    }
    await executePrepared(sql`
      update "job_events" set "dispatched_at" = ${at(0)}::timestamptz where "id" = any(${ids})`);
    return pending.length;
  }

  async function cleanup(): Promise<void> {
    if (clock.now() - lastCleanup < 3_600_000) return;
    lastCleanup = clock.now();
    await executePrepared(sql`
      delete from "job_events"
      where "dispatched_at" is not null and "dispatched_at" < ${at(-KEEP_DISPATCHED_MS)}::timestamptz`);
  }

  async function drainAll(): Promise<number> {
    let total = 0;
    const events = written;
    written = [];
    let read = readAsked || delivery.kind === "inngest";
    readAsked = false;
    if (events.length && delivery.kind === "embedded") {
      // Events this process just wrote, by id: one statement when the runner can adopt them;
      // null (no statement) when it cannot, because a debounce needs its transaction.
      let taken = await delivery.adopt(events);
      if (taken === null) {
        // A debounce needs the transaction: its locking read takes these rows (and any other
        // pending ones) without a look first.
        taken = await enqueueInTransaction(delivery);
        if (taken) delivery.enqueued();
        if (taken >= batchSize) read = true;
      }
      total += taken;
    }
    if (!read) return total;
    for (;;) {
      const count =
        delivery.kind === "embedded"
          ? await drainEmbedded(delivery)
          : await drainToInngest(delivery);
      total += count;
      if (count < batchSize) break;
    }
    await cleanup();
    return total;
  }

  function drain(): Promise<number> {
    readAsked = true;
    return pass();
  }

  function pass(): Promise<number> {
    if (running) {
      // The pass under way may have read the outbox before the caller's events were committed:
      // the caller gets a fresh pass after it, one shared by everyone who asked meanwhile.
      again ??= running
        .catch(() => 0)
        .then(() => {
          again = null;
          return stopped ? 0 : pass();
        });
      return again;
    }
    running = drainAll().finally(() => {
      running = null;
    });
    return running;
  }

  function wake(events: readonly JobEvent[] = []): void {
    if (events.length) written.push(...events);
    else readAsked = true;
    pass().catch((error: unknown) => console.error("[jobs] outbox pass failed:", error));
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      drain()
        .catch((error: unknown) => console.error("[jobs] outbox pass failed:", error))
        .finally(schedule);
    }, pollIntervalMs);
    timer.unref();
  }

  return {
    drain,
    wake,
    start() {
      if (!stopped) return;
      stopped = false;
      wake();
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => 0);
      await again?.catch(() => 0);
    },
  };
}
