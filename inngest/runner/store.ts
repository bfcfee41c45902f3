// The embedded runner's statements on the `jobs` table: enqueue (with debounce), claim (with
// concurrency and throttle), and the writes of a running job, each fenced by its lease. Every
// time written or compared here comes from the runner's clock, never the database's now(), so a
// test's clock decides what is due.
import "server-only";
import { and, asc, eq, inArray, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { alias, PgTransaction } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { fromJson } from "@/db/json";
import { isOneOf } from "@/db/literals";
import { jobs } from "@/db/schema";
import type { JobEvent } from "@/lib/jobs/define";
import { toStorableJson } from "@/lib/text/storable";
import { type FunctionPlan, keysOf } from "./plan";

export type JobRow = typeof jobs.$inferSelect;

/**
 * Who may write a running job: the lease owner of one claim. The attempt number tells two claims
 * by the same process apart (its lease lapsed while it stalled, and it claimed the job again).
 */
export type Fence = { id: string; owner: string; attempt: number };

// Advisory lock classes (the two-key form, a space apart from the app's one-key locks).
const CLAIM_LOCK = 0x6a6f6273; // "jobs"
const DEBOUNCE_LOCK = 0x6a646262;

/** The last_error of a row a newer event took the place of (it never runs). */
export const DEBOUNCED = "debounced";

const at = (ms: number): SQL => sql`${new Date(ms).toISOString()}::timestamptz`;

/** Inserts the jobs `events` start; returns how many will run (duplicates and absorbed ones not). */
export async function insertJobs(
  db: Db,
  plans: readonly FunctionPlan[],
  events: readonly JobEvent[],
  now: number,
): Promise<number> {
  const plain: JobInsert[] = [];
  const debounced: { plan: FunctionPlan; event: JobEvent; key: string }[] = [];
  for (const event of events) {
    for (const plan of plans) {
      if (!plan.isStartedBy(event)) continue;
      const keys = keysOf(plan, event);
      if (plan.debounce && keys.debounceKey !== null) {
        debounced.push({ plan, event, key: keys.debounceKey });
        continue;
      }
      plain.push(jobRow(plan, event, now, runAtOf(plan, event, now), keys));
    }
  }
  // Events of one batch with the same debounce key: only the latest can be the one that runs, so
  // the others are stored as absorbed at once (their rows still recognise a re-send) and the
  // debounce's lock and reads are paid once per key, not once per event (a busy organization's
  // turns arrive many to a hand-over).
  const latest = new Map<string, (typeof debounced)[number]>();
  for (const item of debounced) {
    const group = `${item.plan.id}\u0000${item.key}`;
    const seen = latest.get(group);
    if (seen && item.event.ts < seen.event.ts) {
      plain.push(absorbedRow(item.plan, item.event, now));
      continue;
    }
    if (seen) plain.push(absorbedRow(seen.plan, seen.event, now));
    latest.set(group, item);
  }
  const groups = [...latest.values()];
  // Inside the caller's transaction as it is (a failure there fails the whole hand-over, so a
  // savepoint would buy nothing but two statements): one statement takes every key's lock and
  // inserts the plain rows, then one statement per key. Outside one, each key gets its own.
  if (isTransaction(db)) {
    let queued = await insertPlain(db, plain, groups.map(lockKey));
    for (const group of groups) {
      queued += await debounce(db, group.plan, group.event, group.key, now);
    }
    return queued;
  }
  let queued = plain.length > 0 ? await insertPlain(db, plain, []) : 0;
  for (const group of groups) {
    queued += await db.transaction(async (tx) => {
      await insertPlain(tx, [], [lockKey(group)]);
      return debounce(tx, group.plan, group.event, group.key, now);
    });
  }
  return queued;
}

/** The debounce lock's key of a function and debounce key. */
function lockKey({ plan, key }: { plan: FunctionPlan; key: string }): string {
  return `${plan.id}:${key}`;
}

/**
 * Takes the debounce locks of `lockKeys` (in a fixed order, so two enqueues never wait on each
 * other crosswise) and inserts `rows`, in one statement; returns how many rows will run. Two
 * enqueues of one key at once would each find no queued job and both insert one: they take turns
 * until the caller's transaction ends. The lock cannot join the debounce's own statement: a
 * statement reads from the snapshot it started with, which would miss a job committed while it
 * waited for the lock.
 */
async function insertPlain(db: Db, rows: JobInsert[], lockKeys: string[]): Promise<number> {
  const records = rows.map((row) => ({
    id: row.id,
    function_id: row.functionId,
    event_id: row.eventId,
    event: row.event,
    state: row.state ?? "queued",
    run_at: row.runAt?.toISOString(),
    max_attempts: row.maxAttempts,
    created_at: row.createdAt?.toISOString(),
    concurrency_key: row.concurrencyKey ?? null,
    throttle_key: row.throttleKey ?? null,
    debounce_key: row.debounceKey ?? null,
    last_error: row.lastError ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  }));
  // One array and one JSON parameter: the statement's text is the same whatever the counts.
  const result = await db.execute(sql`
    with locked as (
      select pg_advisory_xact_lock(${DEBOUNCE_LOCK}, hashtext(k))
      from jsonb_array_elements_text(${JSON.stringify(lockKeys.toSorted())}::jsonb) as k
    ), inserted as (
      insert into ${jobs} ("id", "function_id", "event_id", "event", "state", "run_at",
        "max_attempts", "created_at", "concurrency_key", "throttle_key", "debounce_key",
        "last_error", "finished_at")
      select r."id", r."function_id", r."event_id", r."event", r."state", r."run_at",
        r."max_attempts", r."created_at", r."concurrency_key", r."throttle_key",
        r."debounce_key", r."last_error", r."finished_at"
      from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r("id" text,
        "function_id" text, "event_id" text, "event" jsonb, "state" text, "run_at" timestamptz,
        "max_attempts" int, "created_at" timestamptz, "concurrency_key" text,
        "throttle_key" text, "debounce_key" text, "last_error" text, "finished_at" timestamptz)
      on conflict ("function_id", "event_id") do nothing
      returning "state"
    )
    select (select count(*) from locked)::int as "locked",
      (select count(*) from inserted where "state" <> 'completed')::int as "queued"`);
  const [counted] = (
    Array.isArray(result) ? result : (result as { rows: unknown[] }).rows
  ) as Array<{ queued: number }>;
  return counted?.queued ?? 0;
}

type JobInsert = typeof jobs.$inferInsert;

/** Whether `db` is a transaction already (a plain boolean: the caller keeps its `Db` type). */
function isTransaction(db: Db): boolean {
  return db instanceof PgTransaction;
}

/**
 * When a job may first run: now, or, for a function that starts at its event's time, that time
 * when it lies ahead (a delayed event, such as an approval's expiry; Inngest does the same).
 */
function runAtOf(plan: FunctionPlan, event: JobEvent, now: number): number {
  return plan.startsAtEventTime && Number.isFinite(event.ts) ? Math.max(now, event.ts) : now;
}

function jobRow(
  plan: FunctionPlan,
  event: JobEvent,
  now: number,
  runAt: number,
  fields: Partial<JobInsert>,
): JobInsert {
  return {
    ...fields,
    id: crypto.randomUUID(),
    functionId: plan.id,
    eventId: event.id,
    event: toStorableJson({ id: event.id, name: event.name, data: event.data, ts: event.ts }),
    maxAttempts: plan.maxAttempts,
    runAt: new Date(runAt),
    createdAt: new Date(now),
  };
}

/** The row of an event a later one of the same batch and debounce key takes the place of. */
function absorbedRow(plan: FunctionPlan, event: JobEvent, now: number): JobInsert {
  return jobRow(plan, event, now, now, {
    ...keysOf(plan, event),
    state: "completed",
    lastError: DEBOUNCED,
    finishedAt: new Date(now),
  });
}

/**
 * Each event gets its own row (so a re-sent event is recognised by the unique index); a queued,
 * never-started job of the same function and key is closed as absorbed, and the new row runs
 * `period` after this event, but never later than `timeout` after the first event absorbed. An
 * event older than the one waiting (sent out of order) is stored as absorbed and replaces nothing.
 * One statement, under the key's lock (taken by `insertPlain` before it): it reads the waiting
 * job, inserts the new row and absorbs the waiting one. Returns 1 when the new row waits, 0 when
 * the event was older than the one waiting (or a re-send).
 */
async function debounce(
  tx: Db,
  plan: FunctionPlan,
  event: JobEvent,
  key: string,
  now: number,
): Promise<number> {
  const settings = plan.debounce;
  if (!settings) return 0;
  const row = jobRow(plan, event, now, now, keysOf(plan, event));
  const firstDeadline = settings.timeoutMs === undefined ? null : now + settings.timeoutMs;
  const result = await tx.execute(sql`
    with prior as (
      select "id", "debounce_deadline",
        case when jsonb_typeof("event"->'ts') = 'number' then ("event"->>'ts')::float8 else 0 end
          > ${event.ts}::float8 as "newer"
      from ${jobs}
      where "function_id" = ${plan.id} and "debounce_key" = ${key} and "state" = 'queued'
        and "attempts" = 0
      order by "created_at" desc limit 1
      for update
    ), plan as (
      select not coalesce((select "newer" from prior), false) as "runs",
        coalesce((select "debounce_deadline" from prior),
          ${firstDeadline === null ? null : new Date(firstDeadline).toISOString()}::timestamptz)
          as "deadline"
    ), inserted as (
      insert into ${jobs} ("id", "function_id", "event_id", "event", "max_attempts", "created_at",
        "concurrency_key", "throttle_key", "debounce_key", "state", "run_at", "debounce_deadline",
        "last_error", "finished_at")
      select ${row.id}, ${row.functionId}, ${row.eventId}, ${JSON.stringify(row.event)}::jsonb,
        ${row.maxAttempts}, ${at(now)}, ${row.concurrencyKey ?? null}, ${row.throttleKey ?? null},
        ${key},
        case when "runs" then 'queued' else 'completed' end,
        case when "runs" then least(${at(now + settings.periodMs)}, "deadline") else ${at(now)} end,
        case when "runs" then "deadline" end,
        case when "runs" then null else ${DEBOUNCED} end,
        case when "runs" then null else ${at(now)} end
      from plan
      on conflict ("function_id", "event_id") do nothing
      returning "state"
    ), absorbed as (
      update ${jobs} set "state" = 'completed', "last_error" = ${DEBOUNCED},
        "finished_at" = ${at(now)}
      where "id" in (select "id" from prior)
        and exists (select 1 from inserted where "state" = 'queued')
      returning 1
    )
    select "state" from inserted`);
  const [waiting] = (
    Array.isArray(result) ? result : (result as { rows: unknown[] }).rows
  ) as Array<{ state: string }>;
  return waiting?.state === "queued" ? 1 : 0;
}

// Other rows of `jobs`, counted against the candidate row.
const holder = alias(jobs, "holder");
const started = alias(jobs, "started");
const from = (name: "holder" | "started") => sql`${jobs} as ${sql.identifier(name)}`;

/** Whether the flow control of `plan` lets the candidate row start now. */
function flowAllows(plan: FunctionPlan, now: number): SQL | undefined {
  const conditions: SQL[] = [];
  if (plan.concurrency) {
    conditions.push(sql`(${jobs.concurrencyKey} is null or (
      select count(*) from ${from("holder")}
      where ${holder.functionId} = ${jobs.functionId}
        and ${holder.concurrencyKey} = ${jobs.concurrencyKey}
        and ${holder.state} = 'running' and ${holder.leaseExpiresAt} > ${at(now)}
    ) < ${plan.concurrency.limit})`);
  }
  if (plan.throttle) {
    // Throttle gates the start of a run, as Inngest's does; its retries are not held back.
    conditions.push(sql`(${jobs.attempts} > 0 or ${jobs.throttleKey} is null or (
      select count(*) from ${from("started")}
      where ${started.functionId} = ${jobs.functionId}
        and ${started.throttleKey} = ${jobs.throttleKey}
        and ${started.startedAt} > ${at(now - plan.throttle.periodMs)}
    ) < ${plan.throttle.limit})`);
  }
  return and(eq(jobs.functionId, plan.id), ...conditions);
}

/** Queued jobs are due at run_at; running ones whose lease lapsed (their process died) too. */
function due(plans: readonly FunctionPlan[], now: number): SQL | undefined {
  // States in the text (db/literals.ts): the partial index on due rows serves generic plans.
  return and(
    isOneOf(jobs.state, ["queued", "running"]),
    lte(jobs.runAt, new Date(now)),
    or(
      isOneOf(jobs.state, ["queued"]),
      and(isOneOf(jobs.state, ["running"]), lte(jobs.leaseExpiresAt, new Date(now))),
    ),
    inArray(
      jobs.functionId,
      plans.map((plan) => plan.id),
    ),
  );
}

/**
 * Whether any job of `plans` is due, flow control aside: one indexed read without a transaction
 * or a lock.
 */
export async function anyDue(
  db: Db,
  plans: readonly FunctionPlan[],
  now: number,
): Promise<boolean> {
  if (plans.length === 0) return false;
  const rows = await db.select({ id: jobs.id }).from(jobs).where(due(plans, now)).limit(1);
  return rows.length > 0;
}

/** Whether a function's runs wait on other rows (concurrency, throttle): its claims take turns. */
export function hasFlowControl(plan: FunctionPlan): boolean {
  return Boolean(plan.concurrency || plan.throttle);
}

/**
 * Claims up to `limit` due jobs of functions without flow control, and says whether jobs of the
 * `controlled` functions are due too: one statement, without the claim lock (nothing of theirs
 * counts other rows, and SKIP LOCKED keeps two claimers off one row; a row another claim took
 * meanwhile is re-checked against `due` and passed over). An idle poll costs this one statement.
 */
export async function claimFree(
  db: Db,
  free: readonly FunctionPlan[],
  controlled: readonly FunctionPlan[],
  owner: string,
  now: number,
  leaseMs: number,
  limit: number,
): Promise<{ jobs: JobRow[]; controlledDue: boolean }> {
  const controlledDue =
    controlled.length === 0
      ? sql`false`
      : sql`exists (select 1 from ${jobs} where ${due(controlled, now)})`;
  if (free.length === 0 || limit <= 0) {
    if (controlled.length === 0) return { jobs: [], controlledDue: false };
    return { jobs: [], controlledDue: await anyDue(db, controlled, now) };
  }
  const result = await db.execute(sql`
    with claimed as (
      update ${jobs} set "state" = 'running', "lease_owner" = ${owner},
        "lease_expires_at" = ${at(now + leaseMs)}, "attempts" = "attempts" + 1,
        "started_at" = coalesce("started_at", ${at(now)})
      where "id" in (
        select ${jobs.id} from ${jobs} where ${due(free, now)}
        order by ${jobs.runAt}, ${jobs.createdAt}, ${jobs.id}
        limit ${limit} for update skip locked)
      returning *
    )
    select coalesce((select json_agg(claimed) from claimed), '[]'::json) as "claimed",
      ${controlledDue} as "controlled_due"`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    claimed: RawJob[] | string;
    controlled_due: boolean;
  }>;
  const [row] = rows;
  return {
    jobs: (row ? fromJson(row.claimed) : []).map(toJobRow),
    controlledDue: Boolean(row?.controlled_due),
  };
}

/** A `jobs` row as json_agg writes it: column names, times as text. */
type RawJob = {
  id: string;
  function_id: string;
  event_id: string;
  event: unknown;
  state: JobRow["state"];
  run_at: string;
  attempts: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  concurrency_key: string | null;
  throttle_key: string | null;
  debounce_key: string | null;
  debounce_deadline: string | null;
  steps: unknown;
  last_error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
};

const timeOf = (value: string | null): Date | null => (value === null ? null : new Date(value));

function toJobRow(raw: RawJob): JobRow {
  return {
    id: raw.id,
    functionId: raw.function_id,
    eventId: raw.event_id,
    event: raw.event,
    state: raw.state,
    runAt: new Date(raw.run_at),
    attempts: raw.attempts,
    maxAttempts: raw.max_attempts,
    leaseOwner: raw.lease_owner,
    leaseExpiresAt: timeOf(raw.lease_expires_at),
    concurrencyKey: raw.concurrency_key,
    throttleKey: raw.throttle_key,
    debounceKey: raw.debounce_key,
    debounceDeadline: timeOf(raw.debounce_deadline),
    steps: raw.steps,
    lastError: raw.last_error,
    createdAt: new Date(raw.created_at),
    startedAt: timeOf(raw.started_at),
    finishedAt: timeOf(raw.finished_at),
  };
}

/**
 * Claims the next due job of a function with flow control (`plans`) whose flow control lets it
 * start, or null.
 */
export async function claimJob(
  db: Db,
  plans: readonly FunctionPlan[],
  owner: string,
  now: number,
  leaseMs: number,
): Promise<JobRow | null> {
  if (plans.length === 0) return null;
  return db.transaction(async (tx) => {
    // Concurrency and throttle are counts of other rows: two processes counting at once would
    // both see room for one more and both start. Claims therefore take turns, across processes,
    // on one transaction-scoped lock; a claim is one short statement pair, so the wait is short.
    // SKIP LOCKED still passes over a row an enqueue is absorbing into a newer one.
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK}, 0)`);
    // One statement picks and takes the row: the lock above already orders the counting.
    const candidate = tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(due(plans, now), or(...plans.map((plan) => flowAllows(plan, now)))))
      .orderBy(asc(jobs.runAt), asc(jobs.createdAt), asc(jobs.id))
      .limit(1)
      .for("update", { of: jobs, skipLocked: true });
    const [claimed] = await tx
      .update(jobs)
      .set({
        state: "running",
        leaseOwner: owner,
        leaseExpiresAt: new Date(now + leaseMs),
        attempts: sql`${jobs.attempts} + 1`,
        // The run's first start: what a throttle counts.
        startedAt: sql`coalesce(${jobs.startedAt}, ${at(now)})`,
      })
      .where(eq(jobs.id, sql`(${candidate})`))
      .returning();
    return claimed ?? null;
  });
}

function fenced(fence: Fence): SQL | undefined {
  return and(
    eq(jobs.id, fence.id),
    eq(jobs.state, "running"),
    eq(jobs.leaseOwner, fence.owner),
    eq(jobs.attempts, fence.attempt),
  );
}

async function updateFenced(db: Db, fence: Fence, set: Partial<JobInsert>): Promise<boolean> {
  const rows = await db.update(jobs).set(set).where(fenced(fence)).returning({ id: jobs.id });
  return rows.length > 0;
}

/** A finished step's result as JSON text, by its step key. */
export type SavedStep = { key: string; json: string };

/** The steps appended to the stored ones, in one jsonb expression. */
function withSteps(steps: readonly SavedStep[]): SQL {
  const pairs = steps.map((step) => sql`${step.key}::text, ${step.json}::jsonb`);
  return sql`${jobs.steps} || jsonb_build_object(${sql.join(pairs, sql`, `)})`;
}

/** Stores finished steps' results; false when the lease is no longer this run's. */
export async function saveSteps(
  db: Db,
  fence: Fence,
  steps: readonly SavedStep[],
): Promise<boolean> {
  if (steps.length === 0) return true;
  return updateFenced(db, fence, { steps: withSteps(steps) });
}

export function renewLease(db: Db, fence: Fence, until: number): Promise<boolean> {
  return updateFenced(db, fence, { leaseExpiresAt: new Date(until) });
}

const released = { leaseOwner: null, leaseExpiresAt: null } as const;

/**
 * Settles a run as completed; the results of its last steps, not stored yet, are stored by the
 * same statement (a run's last step costs no write of its own).
 */
export function completeJob(
  db: Db,
  fence: Fence,
  now: number,
  steps: readonly SavedStep[] = [],
): Promise<boolean> {
  return updateFenced(db, fence, {
    ...released,
    state: "completed",
    finishedAt: new Date(now),
    lastError: null,
    ...(steps.length > 0 ? { steps: withSteps(steps) } : {}),
  });
}

/** Puts a run back for a retry; its finished steps not stored yet are stored with it. */
export function retryJob(
  db: Db,
  fence: Fence,
  runAt: number,
  code: string,
  steps: readonly SavedStep[] = [],
): Promise<boolean> {
  return updateFenced(db, fence, {
    ...released,
    state: "queued",
    runAt: new Date(runAt),
    lastError: code,
    ...(steps.length > 0 ? { steps: withSteps(steps) } : {}),
  });
}

export function failJob(db: Db, fence: Fence, now: number, lastError: string): Promise<boolean> {
  return updateFenced(db, fence, {
    ...released,
    state: "failed",
    finishedAt: new Date(now),
    lastError,
  });
}

/**
 * Deletes a batch of finished rows: completed ones finished before `completedBefore`, failed ones
 * before `failedBefore`; returns how many.
 */
export async function deleteFinished(
  db: Db,
  { completedBefore, failedBefore }: { completedBefore: number; failedBefore: number },
  batch: number,
): Promise<number> {
  const old = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      or(
        and(isOneOf(jobs.state, ["completed"]), lt(jobs.finishedAt, new Date(completedBefore))),
        and(isOneOf(jobs.state, ["failed"]), lt(jobs.finishedAt, new Date(failedBefore))),
      ),
    )
    .limit(batch);
  const deleted = await db.delete(jobs).where(inArray(jobs.id, old)).returning({ id: jobs.id });
  return deleted.length;
}

/**
 * Queues a failed job again (an admin's retry): its attempts start over, its finished steps are
 * kept, so what succeeded before is not done twice. False when no failed job has this id.
 */
export async function requeueFailed(db: Db, id: string, now: number): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      state: "queued",
      attempts: 0,
      runAt: new Date(now),
      lastError: null,
      finishedAt: null,
    })
    .where(and(eq(jobs.id, id), isOneOf(jobs.state, ["failed"])))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Deletes a failed job (an admin's discard); a job in any other state is left alone. */
export async function deleteFailed(db: Db, id: string): Promise<void> {
  await db.delete(jobs).where(and(eq(jobs.id, id), isOneOf(jobs.state, ["failed"])));
}
