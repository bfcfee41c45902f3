// The jobs port: the one way domain code reaches background work. A domain writes its event in
// its own transaction (enqueueJobEvent, or a statement of its own that the event log's header
// names), then wakes the outbox after commit. Which engine runs the functions (Inngest or the
// embedded runner) is decided at start-up by the composition root, which hands the outbox its
// delivery here; nothing in lib/ knows the engine.
import "server-only";
import type { Tx } from "@/db/client";
import { config } from "@/lib/config";
import { processSingleton } from "@/lib/kernel/singleton";
import { createOutbox, type Delivery, type Outbox, type OutboxOptions } from "./outbox";

/** What the engine lets an admin do with a run that failed past its attempts. */
export type FailedRuns = {
  /** Queues the failed run again, in the caller's transaction; false when it has no such run. */
  requeue(tx: Tx, runId: string): Promise<boolean>;
  /** Deletes the failed run, in the caller's transaction. */
  discard(tx: Tx, runId: string): Promise<void>;
  /** After a requeue committed: the engine looks for the run now rather than at its next poll. */
  requeued(): void;
};

const state = processSingleton<{
  outbox?: Outbox;
  soon?: NodeJS.Timeout;
  failedRuns?: FailedRuns;
}>("jobs-port", () => ({}));

/**
 * Starts the outbox with the engine's delivery, and says how the engine retries and discards a
 * failed run (Inngest's runs are retried from its own dashboard: none). Once per process, after
 * migrations.
 */
export function startOutbox(
  delivery: Delivery,
  options: Omit<OutboxOptions, "delivery"> & { failedRuns?: FailedRuns } = {},
): void {
  if (state.outbox) return;
  const { failedRuns, ...outboxOptions } = options;
  state.failedRuns = failedRuns;
  state.outbox = createOutbox({ delivery, ...outboxOptions });
  state.outbox.start();
}

/** The engine's hand on failed runs, or null when it keeps them itself (Inngest). */
export function failedRuns(): FailedRuns | null {
  return state.failedRuns ?? null;
}

export function outboxStarted(): boolean {
  return state.outbox !== undefined;
}

/** After a commit that wrote to the outbox: hand its events over now rather than at the next poll. */
export function wakeJobs(): void {
  state.outbox?.wake();
}

/**
 * After a turn's end queued its post-turn event: one outbox pass a moment later
 * (config.jobs.wakeDelayMs) for every turn that ended meanwhile. The turn's last events reach
 * its clients first, and under load many turns' events are handed over in one pass rather than
 * one pass each.
 */
export function wakeJobsSoon(): void {
  if (!state.outbox || state.soon) return;
  state.soon = setTimeout(() => {
    state.soon = undefined;
    wakeJobs();
  }, config.jobs.wakeDelayMs);
  state.soon.unref();
}

/** One outbox pass now, awaited (tests, and the bench's job-latency run). */
export async function drainJobsOnce(): Promise<number> {
  return (await state.outbox?.drain()) ?? 0;
}

export async function stopOutbox(): Promise<void> {
  clearTimeout(state.soon);
  state.soon = undefined;
  await state.outbox?.stop();
  state.outbox = undefined;
  state.failedRuns = undefined;
}
