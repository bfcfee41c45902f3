// A graceful stop of a server process on SIGTERM or SIGINT, once: stop renewing leases (turns
// still running here are reaped by the next process, as after a crash), commit the events
// buffered for the log, then close the database, which releases the embedded database's lock
// only once PGlite has written its last page. Then the process exits.
import "server-only";
import { closeDatabase } from "@/db/client";
import { errorClass } from "@/lib/kernel/error-class";
import { processSingleton } from "@/lib/kernel/singleton";

const SIGNALS = [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const;

type State = { installed?: boolean; done?: Promise<void> };
const state = processSingleton<State>("shutdown", () => ({}));

async function step(name: string, run: () => Promise<void> | void): Promise<void> {
  try {
    await run();
  } catch (error) {
    // One failed step must not keep the others from running.
    console.error(`[shutdown] ${name} failed (${errorClass(error)})`);
  }
}

/** Stops this process's background work and closes its database; later calls wait for the first. */
export function shutdown(): Promise<void> {
  state.done ??= (async () => {
    await step("stopping the lease loop", async () => {
      const { stopLeaseLoop } = await import("@/lib/turns/lease");
      stopLeaseLoop();
      const { stopCompactionReaper } = await import("@/lib/compaction/lease");
      stopCompactionReaper();
    });
    await step("stopping the vacuum of the embedded database", async () => {
      const { stopLogMaintenance } = await import("@/lib/stream/log-maintenance");
      await stopLogMaintenance();
    });
    await step("stopping background jobs", async () => {
      const { stopJobs } = await import("@/inngest/engine");
      await stopJobs();
    });
    await step("flushing the event log", async () => {
      const { flushEventLog } = await import("@/lib/stream/event-log");
      await flushEventLog();
    });
    await step("closing the database", () => closeDatabase({ final: true }));
  })();
  return state.done;
}

/**
 * Runs `shutdown()` on SIGTERM and SIGINT, then exits. Next.js's own handler exits as soon as
 * its HTTP server has closed, which would cut the flush short: it is moved to run after ours.
 */
export function installShutdownHandlers(): void {
  if (state.installed || typeof process.once !== "function") return;
  state.installed = true;
  for (const [signal, code] of SIGNALS) {
    const others = process.listeners(signal);
    for (const other of others) process.off(signal, other);
    // `once`: a second signal during shutdown gets the default action and ends the process.
    process.once(signal, () => {
      void shutdown().finally(() => {
        if (others.length === 0) process.exit(code);
        for (const other of others) other(signal);
      });
    });
  }
}
