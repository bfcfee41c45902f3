// Background work after a turn: the outbox of events, the embedded runner's job table, and the
// record of jobs that gave up. Written by lib/jobs/ (the outbox: every module that queues an event
// with the change it follows, a turn's close, a delete's clean-up, an approval's deadline or a
// memory block's rollup, does so through lib/jobs/enqueue.ts in its own transaction) and by
// inngest/ (the embedded runner and the failure record).
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organization } from "./auth";

/**
 * The outbox: an event is written in the same transaction as the change it reports, then handed
 * to the configured engine (Inngest, or the embedded runner's job table) after commit. Its id is
 * the event id Inngest de-duplicates on, so handing it over twice is harmless.
 */
export const jobEvents = pgTable(
  "job_events",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    data: jsonb("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The event's time when it is not its creation: a time in the future delays the runs it
     * starts until then (Inngest schedules them by the event's `ts`; the runner by `run_at`).
     */
    ts: timestamp("ts", { withTimezone: true }),
    /** Null until the engine has it; the dispatcher retries rows still null. */
    dispatchedAt: timestamp("dispatched_at", { withTimezone: true }),
    /** Failed hand-overs so far, and when the next may be tried (backoff). */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
  },
  (t) => [
    index("job_events_pending_idx").on(t.nextAttemptAt).where(sql`${t.dispatchedAt} is null`),
    // The turn inspector finds the events a turn caused.
    index("job_events_turn_idx").on(sql`(${t.data} ->> 'turnId')`),
  ],
);

export const JOB_STATES = ["queued", "running", "completed", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * The embedded runner's jobs: one row per function run. Claimed with FOR UPDATE SKIP LOCKED and
 * held by a lease, so several server processes share the table without running a job twice at
 * once; a lease that lapses (its process died) makes the job claimable again.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    functionId: text("function_id").notNull(),
    /** The event that started the run (with debounce: the latest event it absorbed). */
    eventId: text("event_id").notNull(),
    /** `{ id, name, data, ts }` as the handler receives it. */
    event: jsonb("event").notNull(),
    state: text("state", { enum: JOB_STATES }).notNull().default("queued"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    /** Flow control keys, evaluated from the event when the job is enqueued. */
    concurrencyKey: text("concurrency_key"),
    throttleKey: text("throttle_key"),
    debounceKey: text("debounce_key"),
    /** With debounce: the latest a debounced job may be pushed back to (the maximum wait). */
    debounceDeadline: timestamp("debounce_deadline", { withTimezone: true }),
    /** Finished step results by step id, so a retry does not redo them. */
    steps: jsonb("steps").notNull().default(sql`'{}'::jsonb`),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("jobs_function_event_idx").on(t.functionId, t.eventId),
    // The turn inspector finds the runs of a turn's events.
    index("jobs_event_idx").on(t.eventId),
    index("jobs_due_idx").on(t.runAt).where(sql`${t.state} in ('queued', 'running')`),
    index("jobs_debounce_idx")
      .on(t.functionId, t.debounceKey)
      .where(sql`${t.state} = 'queued' and ${t.debounceKey} is not null`),
    // A claim counts the runs holding a key (concurrency) and the runs started in the period
    // (throttle); the cleanup finds completed rows by age.
    index("jobs_concurrency_idx")
      .on(t.functionId, t.concurrencyKey)
      .where(sql`${t.state} = 'running' and ${t.concurrencyKey} is not null`),
    index("jobs_throttle_idx")
      .on(t.functionId, t.throttleKey, t.startedAt)
      .where(sql`${t.throttleKey} is not null`),
    index("jobs_finished_idx").on(t.finishedAt).where(sql`${t.state} = 'completed'`),
  ],
);

/**
 * Jobs that exhausted their retries, in either engine: metadata only (which function, for which
 * organization and workstream, how many attempts, the error's code), never event content.
 */
export const failedJobs = pgTable(
  "failed_jobs",
  {
    id: text("id").primaryKey(),
    functionId: text("function_id").notNull(),
    eventId: text("event_id").notNull(),
    /** The embedded job's id or Inngest's run id. */
    runId: text("run_id"),
    organizationId: text("organization_id").references(() => organization.id, {
      onDelete: "cascade",
    }),
    // No foreign key: the record outlives a workstream deleted since (the view says so).
    workstreamId: text("workstream_id"),
    attempts: integer("attempts").notNull(),
    /** A stable code and its plain sentence; never a stack, SQL or content. */
    errorCode: text("error_code").notNull(),
    errorMessage: text("error_message").notNull(),
    /**
     * What the model provider said about its refusal, cut short: shown only to the owner of the
     * turn the job ran for, never to an admin (it may quote the request).
     */
    providerDetail: text("provider_detail"),
    /** A learning job's failure: the members whose turns it was learning from. */
    memberIds: text("member_ids").array().notNull().default(sql`'{}'::text[]`),
    failedAt: timestamp("failed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("failed_jobs_function_event_idx").on(t.functionId, t.eventId),
    index("failed_jobs_org_idx").on(t.organizationId, t.failedAt),
  ],
);
