// Compactions: each time a workstream's older history was summarized, the range it covered (by
// message id and sequence), the summary, the state delta it merged and what that changed, and the
// token counts before and after. The messages themselves are never deleted: a compaction only
// moves the workstream's pointers (workstreams.compaction_summary, .last_compacted_message_id),
// so every range can be read again. Written only by lib/compaction.
import { sql } from "drizzle-orm";
import { bigint, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { workstreams } from "./workstreams";

export const compactions = pgTable(
  "compactions",
  {
    id: text("id").primaryKey(),
    workstreamId: text("workstream_id")
      .notNull()
      .references(() => workstreams.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    /** The range, inclusive: its first and last message, by id and by messages.seq. */
    firstMessageId: text("first_message_id").notNull(),
    lastMessageId: text("last_message_id").notNull(),
    firstSeq: bigint("first_seq", { mode: "number" }).notNull(),
    lastSeq: bigint("last_seq", { mode: "number" }).notNull(),
    messageCount: integer("message_count").notNull(),
    /** The summary the model sees from now on; it folds in the previous compaction's. */
    summary: text("summary").notNull(),
    /** The WorkstreamStateDelta merged with it, and what the merge added and evicted. */
    stateDelta: jsonb("state_delta").notNull().default(sql`'{}'::jsonb`),
    stateChanges: jsonb("state_changes").notNull().default(sql`'{"added":[],"evicted":[]}'::jsonb`),
    /** Uncompacted history before; summary plus the history left after (budget tokens). */
    tokensBefore: integer("tokens_before").notNull(),
    tokensAfter: integer("tokens_after").notNull(),
    model: text("model").notNull(),
    durationMs: integer("duration_ms").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One compaction per range end: a second write of the same compaction is refused.
    uniqueIndex("compactions_workstream_last_seq_idx").on(t.workstreamId, t.lastSeq),
  ],
);

export type CompactionRow = typeof compactions.$inferSelect;
