// Workstreams and their messages. Written only by lib/workstreams (workstreams rows, the busy
// flag in lib/workstreams/busy.ts, and the message send_message relays from another workstream),
// lib/turns (messages) and lib/compaction (the compaction flag, its lease and the compaction
// pointers), each in its own module.
import { type SQL, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { organization, user } from "./auth";

export const workstreams = pgTable(
  "workstreams",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    // A removed member's workstreams stay with the organization (read-only), so no cascade.
    ownerId: text("owner_id").references(() => user.id, { onDelete: "set null" }),
    mode: text("mode", { enum: ["direct", "group"] }).notNull(),
    core: boolean("core").notNull().default(false),
    coreType: text("core_type"),
    agentId: text("agent_id").notNull(),
    title: text("title").notNull(),
    status: text("status", { enum: ["regular", "archived"] })
      .notNull()
      .default("regular"),
    activeRunId: text("active_run_id"),
    isCompacting: boolean("is_compacting").notNull().default(false),
    /**
     * The running compaction's lease: its claim's token and when it lapses. A compaction whose
     * process died leaves them behind; once the lease lapses the workstream counts as free and
     * the reaper clears the flag.
     */
    compactionToken: text("compaction_token"),
    compactionLeaseExpiresAt: timestamp("compaction_lease_expires_at", { withTimezone: true }),
    compactionSummary: text("compaction_summary"),
    lastCompactedMessageId: text("last_compacted_message_id"),
    /**
     * Which tool calls run without asking: `ask` (the tools that need approval ask), `allowlist`
     * (the listed tools run, every other asks) or `auto` (nothing asks). The organization's tool
     * policy comes first whatever the mode.
     */
    securityMode: text("security_mode", { enum: ["ask", "allowlist", "auto"] })
      .notNull()
      .default("ask"),
    toolAllowlist: jsonb("tool_allowlist").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** A message arrived from another workstream and the owner has not opened this one since. */
    unreadSince: timestamp("unread_since", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("workstreams_owner_idx").on(t.organizationId, t.ownerId, t.mode, t.status, t.updatedAt),
    // The reaper's look for lapsed compaction leases reads only workstreams that are compacting.
    index("workstreams_compacting_idx")
      .on(t.compactionLeaseExpiresAt)
      .where(sql`${t.isCompacting}`),
  ],
);

/** The searchable words of a message: its text parts only. The index and its queries share it. */
export function messageSearchVector(parts: AnyPgColumn | SQL) {
  return sql`to_tsvector('english', jsonb_path_query_array(${parts}, '$[*] ? (@.type == "text").text'))`;
}

export const messages = pgTable(
  "messages",
  {
    workstreamId: text("workstream_id")
      .notNull()
      .references(() => workstreams.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    // Increasing in insertion order; history pages by it.
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    role: text("role", { enum: ["system", "user", "assistant"] }).notNull(),
    parts: jsonb("parts").notNull(),
    metadata: jsonb("metadata").notNull().default(sql`'{}'::jsonb`),
    tokenCount: integer("token_count").notNull().default(0),
    turnId: text("turn_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workstreamId, t.id] }),
    uniqueIndex("messages_workstream_seq_idx").on(t.workstreamId, t.seq),
    // A turn's messages, read by the post-turn jobs after every turn: without it that read scans
    // the workstream's whole history.
    index("messages_turn_idx").on(t.turnId).where(sql`${t.turnId} is not null`),
    // Full-text search over the text parts (the search_history tool); tool calls are left out.
    index("messages_search_idx").using("gin", messageSearchVector(t.parts)),
  ],
);
