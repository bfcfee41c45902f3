// The one module that knows which engine runs the background functions. Inngest when it is
// configured (inngest/client.ts): the outbox sends events to Inngest, which calls /api/inngest.
// Otherwise the embedded runner: the outbox moves events into the job table and the runner, in
// this process (and in every other server on the same database), runs them. Everything else
// writes events to the outbox and calls wakeJobs(); nothing else knows which engine runs.
import "server-only";
import { config } from "@/lib/config";
import type { JobEvent } from "@/lib/jobs/define";
import { createOutbox, type Outbox } from "@/lib/jobs/outbox";
import { processSingleton } from "@/lib/kernel/singleton";
import { getInngest, inngestConfigured } from "./client";
import { JOBS } from "./functions";
import { toInngestFunction } from "./inngest-functions";
import { createEmbeddedRunner, type EmbeddedRunner } from "./runner";

export type JobEngineKind = "inngest" | "embedded";

export function jobEngineKind(env: NodeJS.ProcessEnv = process.env): JobEngineKind {
  return inngestConfigured(env) ? "inngest" : "embedded";
}

const state = processSingleton<{
  functions?: ReturnType<typeof toInngestFunction>[];
  outbox?: Outbox;
  runner?: EmbeddedRunner;
  soon?: NodeJS.Timeout;
  /** Events written since the delayed wake was set, handed to the outbox with it. */
  written?: JobEvent[];
  /** A wake since then came without its events: the pass reads the outbox. */
  readOutbox?: boolean;
}>("jobs", () => ({}));

/** The functions as Inngest functions, for `serve()` at /api/inngest. */
export function inngestFunctions(): ReturnType<typeof toInngestFunction>[] {
  state.functions ??= JOBS.map(toInngestFunction);
  return state.functions;
}

function sendToInngest(events: JobEvent[]): Promise<void> {
  // The outbox row's id is Inngest's event id: a second send of one row is de-duplicated.
  return getInngest()
    .send(
      events.map((event) => ({
        id: event.id,
        name: event.name,
        data: event.data as never,
        ts: event.ts,
      })),
    )
    .then(() => undefined);
}

/**
 * Starts the outbox sender (and, embedded, the runner). Once per process, after migrations.
 * `busy` says whether live turns run in this process: the embedded runner lets them go first.
 */
export function startJobs({ busy }: { busy?: () => boolean } = {}): void {
  if (state.outbox) return;
  if (jobEngineKind() === "inngest") {
    state.outbox = createOutbox({
      delivery: { kind: "inngest", send: sendToInngest },
      claimMs: config.jobs.outboxClaimMs,
    });
  } else {
    const runner = createEmbeddedRunner({ functions: JOBS, busy });
    state.runner = runner;
    state.outbox = createOutbox({
      delivery: {
        kind: "embedded",
        adopt: (events) => runner.adopt(events),
        enqueue: (tx, events) => runner.handOver(tx, events),
        enqueued: () => runner.wake(),
      },
    });
    runner.start();
  }
  state.outbox.start();
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

export async function stopJobs(): Promise<void> {
  clearTimeout(state.soon);
  state.soon = undefined;
  state.written = undefined;
  state.readOutbox = undefined;
  await state.outbox?.stop();
  await state.runner?.stop();
  state.outbox = undefined;
  state.runner = undefined;
}
