// The embedded engine: runs the declared background functions in the app server when no Inngest
// is configured. Jobs are rows of `jobs` (so they survive a restart), claimed under a lease by
// whichever server process polls first, run at least once with memoized steps, retried with
// backoff and held back by the flow control their function declares.
import "server-only";
import { type Db, getDb, type Tx } from "@/db/client";
import { type JobFailure, recordJobFailure } from "@/inngest/failures/record";
import { config } from "@/lib/config";
import type { AnyJobDefinition, JobEvent } from "@/lib/jobs/define";
import { errorClass } from "@/lib/kernel/error-class";
import { PROCESS_ID } from "@/lib/kernel/process-id";
import { executeJob, type Settled } from "./execute";
import { type FunctionPlan, planOf, retentionMs } from "./plan";
import {
  anyDue,
  claimFree,
  claimJob,
  deleteFailed,
  deleteFinished,
  hasFlowControl,
  insertJobs,
  type JobRow,
  requeueFailed,
} from "./store";

export type Clock = { now(): number };

export type EmbeddedRunnerOptions = {
  functions: readonly AnyJobDefinition[];
  /** Every time the runner writes or compares comes from it (tests move it by hand). */
  clock?: Clock;
  /** The lease owner written on claimed jobs; this server process's id by default. */
  processId?: string;
  /** How often to look for due jobs written by other processes or become due by time. */
  pollIntervalMs?: number;
  /** How long a claim holds without renewal; renewed every third of it while the job runs. */
  leaseMs?: number;
  /** The wait before retry number `attempt` (1 after the first failure). */
  backoffMs?: (attempt: number) => number;
  /** Called once for a job that exhausted its retries. */
  onFailure?: (failure: JobFailure) => Promise<void>;
  /** Jobs this process runs at once. */
  maxRunning?: number;
  /** The database; the process-wide one by default (tests give two runners two connections). */
  db?: () => Promise<Db>;
  /**
   * Whether foreground work (live turns) is running in this process: claims then wait, so
   * background jobs do not compete with turns for the database (PGlite has one connection) and
   * the CPU. They wait at most `maxYieldMs` (default 2 s), so a busy server still runs its jobs.
   */
  busy?: () => boolean;
  maxYieldMs?: number;
  /** How long completed and failed jobs are kept; config.jobs by default. */
  keep?: { completedMs: number; failedMs: number };
};

export type EmbeddedRunner = {
  /**
   * Inserts one job per function whose trigger name matches each event, in the caller's
   * transaction (or on its own); applies debounce; idempotent per (function, event id).
   * Returns how many jobs were added.
   */
  enqueue(db: Db | Tx, events: JobEvent[]): Promise<number>;
  /** Queues a failed job again, in the caller's transaction; false when there is none by the id. */
  requeueFailed(tx: Tx, id: string): Promise<boolean>;
  /** Deletes a failed job, in the caller's transaction. */
  discardFailed(tx: Tx, id: string): Promise<void>;
  /** Begins polling (timers do not keep the process alive). */
  start(): void;
  /** Stops polling and waits, for a bounded time, for the jobs running here to settle. */
  stop(): Promise<void>;
  /** Runs due jobs now (calls while a round runs are folded into it), e.g. after an enqueue. */
  wake(): void;
  /** Claims and runs every job due by the clock until none is claimable; returns how many ran. */
  runDue(): Promise<number>;
};

const BASE_BACKOFF_MS = 2_000;
const MAX_BACKOFF_MS = 10 * 60_000;
const STOP_WAIT_MS = 10_000;
const CLEANUP_EVERY_MS = 60 * 60_000;
const CLEANUP_BATCH = 1_000;
const YIELD_POLL_MS = 20;

/** Exponential from 2 s, capped at 10 minutes, with jitter so failed jobs do not retry in step. */
export function defaultBackoffMs(attempt: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

export function createEmbeddedRunner(options: EmbeddedRunnerOptions): EmbeddedRunner {
  const definitions = new Map<string, AnyJobDefinition>();
  for (const definition of options.functions) {
    if (definitions.has(definition.id)) {
      throw new Error(`Two background functions share the id "${definition.id}".`);
    }
    definitions.set(definition.id, definition);
  }
  const plans: FunctionPlan[] = options.functions.map(planOf);
  // Functions whose runs count other rows are claimed one at a time under the claim lock; the
  // others in batches, without it.
  const free = plans.filter((plan) => !hasFlowControl(plan));
  const controlled = plans.filter(hasFlowControl);
  const clock = options.clock ?? { now: () => Date.now() };
  const owner = options.processId ?? PROCESS_ID;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const leaseMs = options.leaseMs ?? 30_000;
  const maxRunning = options.maxRunning ?? 8;
  const database = options.db ?? getDb;
  const settings = {
    now: () => clock.now(),
    owner,
    leaseMs,
    backoffMs: options.backoffMs ?? defaultBackoffMs,
    onFailure: options.onFailure ?? recordJobFailure,
  };

  const running = new Set<Promise<void>>();
  let draining: Promise<number> | undefined;
  let woken = false;
  // Someone asked since the last claim (an enqueue, a poll, runDue), not only a job settling.
  let asked = false;
  let signal: () => void = () => {};
  let stopped = false;
  let polling = false;
  let timer: NodeJS.Timeout | undefined;
  let lastCleanup = Number.NEGATIVE_INFINITY;

  /** A job settled or someone asked: the loop looks for claimable jobs again. */
  const notify = ({ ask = false } = {}) => {
    woken = true;
    if (ask) asked = true;
    const wakeUp = signal;
    signal = () => {};
    wakeUp();
  };

  function launch(job: JobRow, db: Db): void {
    const definition = definitions.get(job.functionId);
    if (!definition) return;
    let settled: Settled = "ended";
    const run = executeJob(job, definition, { ...settings, db })
      .then((how) => {
        settled = how;
      })
      .catch((error: unknown) => {
        // The job keeps its lease until it lapses, then it is claimed and run again.
        console.error(
          `[jobs] ${job.functionId} run ${job.id} could not settle (${errorClass(error)})`,
        );
      })
      .finally(() => {
        running.delete(run);
        // A retry may be due at once (no backoff): that asks for a claim like an enqueue.
        notify({ ask: settled === "requeued" });
      });
    running.add(run);
  }

  /**
   * Waits while live turns run here, for at most maxYieldMs (real time, not the job clock).
   * Returns whether turns still run: jobs that waited that long then go one at a time, so a
   * backlog trickles beside the turns instead of starting a whole batch against them.
   */
  async function yieldToTurns(): Promise<boolean> {
    if (!options.busy) return false;
    const until = Date.now() + (options.maxYieldMs ?? 2_000);
    while (!stopped && options.busy() && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, YIELD_POLL_MS));
    }
    return options.busy();
  }

  /**
   * Claims while there is room and something is due; waits for a settled job or a wake. Each
   * round starts with one statement that claims the due jobs of functions without flow control
   * and says whether others are due (an idle round costs it alone, and a settled job leads
   * straight to it); those others are claimed one by one under the claim lock.
   */
  async function drainLoop(): Promise<number> {
    const db = await database();
    let ran = 0;
    // The last claim found nothing more due than it took: a job settling since then frees room
    // but makes nothing due (functions whose runs wait on others are "controlled", and their
    // being due ends this), so only an ask claims again. Jobs that fall due by the clock (a
    // retry's backoff, a delayed event) are found by the next poll, which asks.
    let exhausted = false;
    asked = true;
    for (;;) {
      const crowded = await yieldToTurns();
      woken = false;
      if (stopped) return ran;
      if (exhausted && !asked) {
        if (running.size === 0) return ran;
        await new Promise<void>((resolve) => {
          signal = resolve;
        });
        continue;
      }
      asked = false;
      const limit = crowded ? 1 : maxRunning;
      const room = limit - running.size;
      exhausted = false;
      if (room > 0) {
        const round = await claimFree(db, free, controlled, owner, clock.now(), leaseMs, room);
        for (const job of round.jobs) launch(job, db);
        ran += round.jobs.length;
        let more = round.controlledDue;
        while (more && !stopped && running.size < limit) {
          const job = await claimJob(db, controlled, owner, clock.now(), leaseMs);
          if (!job) break;
          ran++;
          launch(job, db);
          // After a claim, a plain read says whether another is worth a claiming transaction.
          more = await anyDue(db, controlled, clock.now());
        }
        exhausted = round.jobs.length < room && !more;
      }
      if (stopped) return ran;
      if (woken) continue;
      if (running.size === 0) return ran;
      await new Promise<void>((resolve) => {
        signal = resolve;
      });
    }
  }

  function drain(): Promise<number> {
    if (draining) {
      notify({ ask: true });
      return draining;
    }
    const current = drainLoop().finally(() => {
      draining = undefined;
    });
    draining = current;
    return current;
  }

  /** Hourly, a batch of old finished rows; a full batch means more: the next poll goes on. */
  async function cleanup(): Promise<void> {
    const now = clock.now();
    if (now - lastCleanup < CLEANUP_EVERY_MS) return;
    const keep = options.keep ?? {
      completedMs: config.jobs.keepCompletedMs,
      failedMs: config.jobs.keepFailedMs,
    };
    const deleted = await deleteFinished(
      await database(),
      {
        completedBefore: now - retentionMs(plans, keep.completedMs),
        failedBefore: now - keep.failedMs,
      },
      CLEANUP_BATCH,
    );
    if (deleted < CLEANUP_BATCH) lastCleanup = now;
  }

  function schedule(): void {
    if (!polling || stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      runner.wake();
      cleanup()
        .catch((error: unknown) => {
          console.error(`[jobs] deleting old completed jobs failed (${errorClass(error)})`);
        })
        .finally(schedule);
    }, pollIntervalMs);
    timer.unref();
  }

  const runner: EmbeddedRunner = {
    enqueue: (db, events) => insertJobs(db, plans, events, clock.now()),
    requeueFailed: (tx, id) => requeueFailed(tx, id, clock.now()),
    discardFailed: (tx, id) => deleteFailed(tx, id),
    start() {
      stopped = false;
      if (polling) return;
      polling = true;
      runner.wake();
      schedule();
    },
    async stop() {
      stopped = true;
      polling = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      notify();
      let giveUp: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => {
        giveUp = setTimeout(resolve, STOP_WAIT_MS);
        giveUp.unref();
      });
      // A job still running after the bound keeps its lease until it lapses; another process
      // (or this one, restarted) then runs it again.
      const settled = (async () => {
        // The round under way may still launch the job it was claiming; then wait for them all.
        await Promise.allSettled([draining]);
        await Promise.allSettled([...running]);
      })();
      await Promise.race([settled, bound]);
      clearTimeout(giveUp);
    },
    wake() {
      if (stopped) return;
      drain().catch((error: unknown) => {
        console.error(`[jobs] claiming due jobs failed (${errorClass(error)})`);
      });
    },
    runDue: () => (stopped ? Promise.resolve(0) : drain()),
  };
  return runner;
}
