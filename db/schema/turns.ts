// Turns and their durable event log. Written only by lib/turns and lib/stream.
import { type SQL, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { isOneOf, literalList } from "../literals";
import { user } from "./auth";
import { workstreams } from "./workstreams";

export const TURN_STATES = [
  "pending",
  "active",
  "suspended",
  "completed",
  "cancelled",
  "failed",
] as const;
export type TurnState = (typeof TURN_STATES)[number];

// The turn's states in one vocabulary: which are open (the workstream has a turn) and which are
// running (a process is working on it). Every state list, `isRunning` and SQL filter uses these.

/** A turn that still holds its workstream: a new message gets 409 while one exists. */
export const OPEN_STATES = ["pending", "active", "suspended"] as const satisfies TurnState[];
/** A turn some process works on now; a suspended turn waits for a person instead. */
export const RUNNING_STATES = ["pending", "active"] as const satisfies TurnState[];

export type OpenState = (typeof OPEN_STATES)[number];
export type RunningState = (typeof RUNNING_STATES)[number];

export function isOpen(state: TurnState): state is OpenState {
  return (OPEN_STATES as readonly TurnState[]).includes(state);
}

export function isRunning(state: TurnState): state is RunningState {
  return (RUNNING_STATES as readonly TurnState[]).includes(state);
}

/** For hand-written SQL: `state in (${RUNNING_STATES_LIST})`. */
export const RUNNING_STATES_LIST = literalList(RUNNING_STATES);
export const OPEN_STATES_LIST = literalList(OPEN_STATES);

export function isOpenSql(column: AnyPgColumn): SQL {
  return isOneOf(column, OPEN_STATES);
}

export function isRunningSql(column: AnyPgColumn): SQL {
  return isOneOf(column, RUNNING_STATES);
}

/**
 * Whether the workstream of the row being read ("workstreams") has a running turn: the one
 * definition of a busy workstream that the workstreams' summaries and the admin console's counts
 * and filters read. Spelled out with an alias: drizzle leaves columns unqualified in single-table
 * selects, where "id" inside the subquery would mean turns.id.
 */
export const workstreamHasRunningTurn = sql<boolean>`exists (select 1 from "turns" as running_turn where running_turn."workstream_id" = "workstreams"."id" and running_turn."state" in (${RUNNING_STATES_LIST}))`;

export const turns = pgTable(
  "turns",
  {
    id: text("id").primaryKey(),
    workstreamId: text("workstream_id")
      .notNull()
      .references(() => workstreams.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    userId: text("user_id"),
    userMessageId: text("user_message_id").notNull(),
    assistantMessageId: text("assistant_message_id").notNull(),
    state: text("state", { enum: TURN_STATES }).notNull().default("pending"),
    reason: text("reason"),
    errorCode: text("error_code"),
    serverRunId: text("server_run_id"),
    // The lease: which server process runs the turn, until when, unless it renews.
    ownerId: text("owner_id"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    stopRequestedAt: timestamp("stop_requested_at", { withTimezone: true }),
    firstOffset: bigint("first_offset", { mode: "number" }),
    /**
     * Where the turn's current run began when it went on after an approval: its events from here
     * continue the answer kept when it was suspended. Null for a turn that never waited.
     */
    resumedOffset: bigint("resumed_offset", { mode: "number" }),
    lastOffset: bigint("last_offset", { mode: "number" }),
    agentId: text("agent_id"),
    model: text("model"),
    usage: jsonb("usage"),
    costUsd: doublePrecision("cost_usd"),
    attempts: jsonb("attempts").notNull().default(sql`'[]'::jsonb`),
    /**
     * What each run of the turn did (a turn that waited for an approval runs again): stage
     * timings, tool-call stages and per-step usage, appended by the statement that ends the run.
     * Ids, names, counts and durations only. Null for turns ended elsewhere (reaped, stopped while
     * waiting) and for turns from before it was kept.
     */
    timeline: jsonb("timeline"),
    /** What the model was sent, by section with token counts (no content): "what the agent saw". */
    context: jsonb("context"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One open turn per workstream, enforced by the database itself.
    uniqueIndex("turns_one_open_per_workstream")
      .on(t.workstreamId)
      .where(sql`state in ('pending', 'active', 'suspended')`),
    index("turns_workstream_created_idx").on(t.workstreamId, t.createdAt),
    index("turns_lease_idx").on(t.state, t.leaseExpiresAt),
    index("turns_user_created_idx").on(t.userId, t.createdAt),
    // The admin usage view reads an organization's turns of the last days by their start.
    index("turns_org_created_idx").on(t.organizationId, t.createdAt),
    // The memory digest reads an organization's completed turns in the order they ended.
    index("turns_org_ended_idx")
      .on(t.organizationId, t.endedAt)
      .where(sql`${t.state} = 'completed'`),
  ],
);

export const turnEvents = pgTable(
  "turn_events",
  {
    workstreamId: text("workstream_id")
      .notNull()
      .references(() => workstreams.id, { onDelete: "cascade" }),
    offset: bigint("offset", { mode: "number" }).notNull(),
    turnId: text("turn_id").notNull(),
    chunk: jsonb("chunk").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workstreamId, t.offset] }),
    index("turn_events_turn_idx").on(t.turnId),
  ],
);

/**
 * The per-user turn rate limit: a counter per fixed window, bumped by the statement that opens a
 * turn. The row lock of its upsert orders concurrent openers on every server, so the count holds
 * without a transaction of its own.
 */
export const turnRateLimits = pgTable("turn_rate_limits", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  turns: integer("turns").notNull(),
});
