// One claimed job, run to its outcome: its event checked against the trigger's schema, its
// handler called with memoized steps while the lease is renewed, then completed, put back with a
// backoff, or failed and handed to onFailure. No transaction is open while the handler runs.
// A finished step's result is stored at once, unless the handler ends in the same tick (its last
// step): then the statement that settles the run stores it, and the last step costs no write.
import "server-only";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { failureCode, type JobFailure } from "@/inngest/failures/record";
import {
  type AnyJobDefinition,
  type JobEvent,
  type JobStep,
  JobTimeoutError,
  type StepResult,
  withinRunTimeout,
} from "@/lib/jobs/define";
import { errorClass } from "@/lib/kernel/error-class";
import { toStorableJson } from "@/lib/text/storable";
import {
  completeJob,
  type Fence,
  failJob,
  type JobRow,
  renewLease,
  retryJob,
  type SavedStep,
  saveSteps,
} from "./store";

export type RunSettings = {
  db: Db;
  now: () => number;
  owner: string;
  leaseMs: number;
  backoffMs: (attempt: number) => number;
  onFailure: (failure: JobFailure) => Promise<void>;
};

/** The run's lease went to another claim: what it writes from now on is refused. */
export class LeaseLostError extends Error {
  constructor() {
    super("The job's lease was taken over by another claim.");
    this.name = "LeaseLostError";
  }
}

/** Field paths and issue codes only: the values are the event's content. */
function describeIssues(error: z.ZodError): string {
  const issues = error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join(".") || "(root)"} ${issue.code}`);
  return `refused: invalid event data (${issues.join(", ")})`;
}

/** How a run settled: its job queued again for a retry, or done with here. */
export type Settled = "requeued" | "ended";

export async function executeJob(
  job: JobRow,
  definition: AnyJobDefinition,
  settings: RunSettings,
): Promise<Settled> {
  const { db, now, owner } = settings;
  const fence: Fence = { id: job.id, owner, attempt: job.attempts };
  const stored = job.event as JobEvent;

  if (job.attempts > job.maxAttempts) {
    // Its last attempt was claimed by a process that died before settling it.
    await giveUp(job, stored, new Error("The job's last attempt did not finish."), settings);
    return "ended";
  }

  const parsed = definition.trigger.schema.safeParse(stored.data);
  if (!parsed.success) {
    console.warn(
      `[jobs] ${definition.id} refused event ${stored.id}: its data does not match the event's schema`,
    );
    await failJob(db, fence, now(), describeIssues(parsed.error));
    return "ended";
  }

  let lost = false;
  const renewal = setInterval(
    () => {
      renewLease(db, fence, now() + settings.leaseMs)
        .then((renewed) => {
          if (!renewed) lost = true;
        })
        .catch((error: unknown) => {
          console.error(`[jobs] renewing the lease of ${job.id} failed (${errorClass(error)})`);
        });
    },
    Math.max(1, Math.floor(settings.leaseMs / 3)),
  );
  renewal.unref();

  const memo = { ...(job.steps as Record<string, unknown>) };
  const calls = new Map<string, number>();
  // Finished steps whose results are not stored yet, and the write storing the ones before.
  let unsaved: SavedStep[] = [];
  let saving: Promise<void> = Promise.resolve();
  let soon: NodeJS.Immediate | undefined;
  const store = (): Promise<void> => {
    if (soon) clearImmediate(soon);
    soon = undefined;
    if (unsaved.length === 0) return saving;
    const steps = unsaved;
    unsaved = [];
    saving = saving.then(async () => {
      try {
        if (!(await saveSteps(db, fence, steps))) lost = true;
      } catch (error) {
        // Kept for the statement that settles the run (or the next step's write).
        unsaved = [...steps, ...unsaved];
        console.error(`[jobs] storing the steps of ${job.id} failed (${errorClass(error)})`);
      }
    });
    return saving;
  };
  /** The steps still unstored once the writes under way are done (the settling write's). */
  const settle = async (): Promise<SavedStep[]> => {
    if (soon) clearImmediate(soon);
    soon = undefined;
    await saving;
    return unsaved;
  };
  // Set once the attempt outlived its run timeout: a handler that wakes later writes nothing.
  let expired: () => boolean = () => false;
  const step: JobStep = {
    async run<T>(id: string, body: () => Promise<T> | T): Promise<StepResult<T>> {
      if (expired()) throw new JobTimeoutError();
      // A step id used twice in one run is numbered, as Inngest does, so each keeps its result.
      const seen = calls.get(id) ?? 0;
      calls.set(id, seen + 1);
      const key = seen === 0 ? id : `${id}:${seen}`;
      if (Object.hasOwn(memo, key)) return memo[key] as StepResult<T>;
      // What the steps before it returned is stored before this one does anything.
      await store();
      if (lost) throw new LeaseLostError();
      const result = await body();
      if (expired()) throw new JobTimeoutError();
      // Model output may hold characters jsonb refuses; they become U+FFFD, as in the event log.
      const json =
        (result === undefined ? undefined : JSON.stringify(toStorableJson(result))) ?? "null";
      unsaved.push({ key, json });
      // Stored on the next turn of the event loop, unless the handler has ended by then.
      soon ??= setImmediate(() => {
        store().catch(() => {});
      });
      // What a retry would get back from the stored JSON, so both runs see the same shape.
      memo[key] = JSON.parse(json);
      return memo[key] as StepResult<T>;
    },
  };

  let failure: { error: unknown } | undefined;
  try {
    await withinRunTimeout(definition, (timedOut) => {
      expired = timedOut;
      return definition.handler({
        event: { ...stored, data: parsed.data },
        step,
        runId: job.id,
        attempt: job.attempts - 1,
      });
    });
  } catch (error) {
    failure = { error };
  } finally {
    clearInterval(renewal);
  }
  const unstored = await settle();

  if (!failure) {
    if (!(await completeJob(db, fence, now(), unstored))) {
      console.warn(
        `[jobs] ${definition.id} run ${job.id} lost its lease; its completion is refused`,
      );
    }
    return "ended";
  }
  if (lost || failure.error instanceof LeaseLostError) {
    console.warn(`[jobs] ${definition.id} run ${job.id} lost its lease; its result is dropped`);
    return "ended";
  }
  if (job.attempts >= job.maxAttempts) {
    await giveUp(job, stored, failure.error, settings);
    return "ended";
  }
  const { code } = failureCode(failure.error);
  // The steps that finished before the failure are kept for the retry.
  if (await retryJob(db, fence, now() + settings.backoffMs(job.attempts), code, unstored)) {
    console.warn(
      `[jobs] ${definition.id} run ${job.id} attempt ${job.attempts} failed (${code}, ${errorClass(failure.error)}); it will be retried`,
    );
    return "requeued";
  }
  return "ended";
}

async function giveUp(
  job: JobRow,
  event: JobEvent,
  error: unknown,
  settings: RunSettings,
): Promise<void> {
  const fence: Fence = { id: job.id, owner: settings.owner, attempt: job.attempts };
  const { code } = failureCode(error);
  // Marked first, so a run whose lease was taken over never reports a failure it does not own.
  if (!(await failJob(settings.db, fence, settings.now(), code))) return;
  try {
    await settings.onFailure({
      functionId: job.functionId,
      event,
      runId: job.id,
      attempts: Math.min(job.attempts, job.maxAttempts),
      error,
    });
  } catch (failure) {
    console.error(
      `[jobs] recording the failure of ${job.functionId} run ${job.id} failed (${errorClass(failure)})`,
    );
  }
}
