// The jobs port: the one way domain code reaches background work. A domain writes its event in
// its own transaction (enqueueJobEvent, or a statement of its own that the event log's header
// names), then wakes the outbox after commit. Which engine runs the functions (Inngest or the
// embedded runner) is decided at start-up by the composition root, which hands the outbox its
// delivery here; nothing in lib/ knows the engine.
import "server-only";
import { config } from "@/lib/config";
import { processSingleton } from "@/lib/kernel/singleton";
import type { JobEvent } from "./define";
import { createOutbox, type Delivery, type Outbox, type OutboxOptions } from "./outbox";

const state = processSingleton<{
  outbox?: Outbox;
  soon?: NodeJS.Timeout;
  /** Events written since the delayed wake was set, handed to the outbox with it. */
  written?: JobEvent[];
  /** A wake since then came without its events: the pass reads the outbox. */
  readOutbox?: boolean;
}>("jobs-port", () => ({}));

/** Starts the outbox with the engine's delivery. Once per process, after migrations. */
export function startOutbox(
  delivery: Delivery,
  options: Omit<OutboxOptions, "delivery"> = {},
): void {
  if (state.outbox) return;
  state.outbox = createOutbox({ delivery, ...options });
  state.outbox.start();
}

export function outboxStarted(): boolean {
  return state.outbox !== undefined;
}

/**
 * After a commit that wrote to the outbox: hand the events over now rather than at the next poll.
 * Given the events the commit wrote (all of them), the outbox need not be read to find them.
 */
export function wakeJobs(events?: readonly JobEvent[]): void {
  state.outbox?.wake(events);
}

/**
 * After a turn's end queued its post-turn event: one outbox pass a moment later
 * (config.jobs.wakeDelayMs) for every turn that ended meanwhile. The turn's last events reach
 * its clients first, and under load many turns' events are handed over in one pass rather than
 * one pass each. `event`: the event the commit wrote, when the caller has it; without it the pass
 * reads the outbox.
 */
export function wakeJobsSoon(event?: JobEvent): void {
  if (!state.outbox) return;
  // One wake without its event makes the pass read the outbox anyway.
  if (event && !state.readOutbox) state.written = [...(state.written ?? []), event];
  else state.readOutbox = true;
  if (state.soon) return;
  state.soon = setTimeout(() => {
    const events = state.readOutbox ? undefined : state.written;
    state.soon = undefined;
    state.written = undefined;
    state.readOutbox = undefined;
    wakeJobs(events);
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
  state.written = undefined;
  state.readOutbox = undefined;
  await state.outbox?.stop();
  state.outbox = undefined;
}
