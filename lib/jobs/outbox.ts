// The outbox's sender: events written in a transaction (a turn's post-turn event) are handed to
// the configured engine after commit. A row stays pending until the engine has it, so a crash
// between commit and hand-over loses nothing: any process's next pass picks it up. Rows are
// claimed with FOR UPDATE SKIP LOCKED (and, for the network send, a short claim lease), so two
// processes never hand over the same row at the same time; the event id is also Inngest's
// de-duplication id, so a re-send after a crash is harmless.
import "server-only";
import { sql } from "drizzle-orm";
import { executePrepared, type Tx, transaction } from "@/db/client";
import { config } from "@/lib/config";
import type { JobEvent } from "./define";

export type Delivery =
  /**
   * Into the embedded runner's job table, inside the outbox's transaction that marks the rows
   * handed over, so the marks and the jobs commit together or not at all.
   */
  | {
      kind: "embedded";
      enqueue(tx: Tx, events: JobEvent[]): Promise<void>;
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
  /** How long a failure record is kept for the admin console; config.jobs by default. */
  keepFailedMs?: number;
};

export type Outbox = {
  /** Hands over every pending row that is due; resolves with how many were handed over. */
  drain(): Promise<number>;
  /** Drains soon (coalesced): called after a commit that wrote to the outbox. */
  wake(): void;
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
  keepFailedMs = config.jobs.keepFailedMs,
}: OutboxOptions): Outbox {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  let again: Promise<number> | null = null;
  let stopped = true;
  let lastCleanup = 0;

  const at = (ms: number) => new Date(clock.now() + ms).toISOString();

  /**
   * The hand-over, one transaction: the pending rows are locked (SKIP LOCKED: rows another
   * process is handing over are left to it) and marked handed over in one statement, then their
   * jobs are enqueued; a failed enqueue rolls the marks back.
   */
  async function drainEmbedded(embedded: Extract<Delivery, { kind: "embedded" }>): Promise<number> {
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
      await embedded.enqueue(tx, events);
      return pending.length;
    });
    if (taken) embedded.enqueued();
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
    // Failure records go with the failed runs they describe, in either engine.
    await executePrepared(sql`
      delete from "failed_jobs" where "failed_at" < ${at(-keepFailedMs)}::timestamptz`);
  }

  async function drainAll(): Promise<number> {
    let total = 0;
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

  function wake(): void {
    pass().catch((error: unknown) => console.error("[jobs] outbox pass failed:", error));
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      pass()
        .catch((error: unknown) => console.error("[jobs] outbox pass failed:", error))
        .finally(schedule);
    }, pollIntervalMs);
    timer.unref();
  }

  return {
    drain: pass,
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
