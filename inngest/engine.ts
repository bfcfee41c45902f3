// The one module that knows which engine runs the background functions. Inngest when it is
// configured (inngest/client.ts): the outbox sends events to Inngest, which calls /api/inngest.
// Otherwise the embedded runner: the outbox moves events into the job table and the runner, in
// this process (and in every other server on the same database), runs them. Everything else
// writes events to the outbox and wakes it through the jobs port (lib/jobs/port.ts); only the
// composition root calls this module.
import "server-only";
import { config } from "@/lib/config";
import type { JobEvent } from "@/lib/jobs/define";
import { outboxStarted, startOutbox, stopOutbox } from "@/lib/jobs/port";
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
  runner?: EmbeddedRunner;
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
  if (outboxStarted()) return;
  if (jobEngineKind() === "inngest") {
    startOutbox({ kind: "inngest", send: sendToInngest }, { claimMs: config.jobs.outboxClaimMs });
  } else {
    const runner = createEmbeddedRunner({ functions: JOBS, busy });
    state.runner = runner;
    runner.start();
    startOutbox(
      {
        kind: "embedded",
        enqueue: async (tx, events) => {
          await runner.enqueue(tx, events);
        },
        enqueued: () => runner.wake(),
      },
      {
        failedRuns: {
          requeue: (tx, runId) => runner.requeueFailed(tx, runId),
          discard: (tx, runId) => runner.discardFailed(tx, runId),
          requeued: () => runner.wake(),
        },
      },
    );
  }
}

export async function stopJobs(): Promise<void> {
  await stopOutbox();
  await state.runner?.stop();
  state.runner = undefined;
}
