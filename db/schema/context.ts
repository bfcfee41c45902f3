// What a workstream keeps beyond its messages: its structured state and active execution plan
// (one row per workstream), and its memory block of short notes. Written only by lib/state
// (state and plan) and lib/memory (the memory block and its summary).
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workstreams } from "./workstreams";

export const workstreamStates = pgTable("workstream_states", {
  workstreamId: text("workstream_id")
    .primaryKey()
    .references(() => workstreams.id, { onDelete: "cascade" }),
  organizationId: text("organization_id").notNull(),
  /** The WorkstreamState lists (lib/state/schema.ts), parsed with zod wherever it is read. */
  state: jsonb("state").notNull().default(sql`'{}'::jsonb`),
  /** The active execution plan, or null when there is none. */
  plan: jsonb("plan"),
  /** What the latest merge evicted to stay within the limits, shown beside the state. */
  lastEvictions: jsonb("last_evictions").notNull().default(sql`'[]'::jsonb`),
  /** The memory block's one summary of its older entries, and how many entries it folds in. */
  memorySummary: text("memory_summary"),
  memorySummaryEntries: integer("memory_summary_entries").notNull().default(0),
  memorySummaryAt: timestamp("memory_summary_at", { withTimezone: true }),
  /** Bumped by every write: edits compare-and-set on it. */
  version: integer("version").notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const memoryBlockEntries = pgTable(
  "memory_block_entries",
  {
    id: text("id").primaryKey(),
    workstreamId: text("workstream_id")
      .notNull()
      .references(() => workstreams.id, { onDelete: "cascade" }),
    /** Who wrote it: an agent id, or "member" for the workstream's owner. */
    role: text("role").notNull(),
    text: text("text").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("memory_block_entries_workstream_idx").on(t.workstreamId, t.createdAt, t.id)],
);
