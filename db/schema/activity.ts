// Recent activity: one entry per workstream a member touched, rewritten after each completed
// turn, read newest first. Written only by lib/workstreams/activity.ts (a post-turn consumer).
import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organization, user } from "./auth";
import { workstreams } from "./workstreams";

export const recentActivity = pgTable(
  "recent_activity",
  {
    // One entry per workstream: a newer turn replaces the entry instead of adding one.
    workstreamId: text("workstream_id")
      .primaryKey()
      .references(() => workstreams.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    turnId: text("turn_id").notNull(),
    /** What happened, in one line: the member's request of the latest turn, shortened. */
    summary: text("summary").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("recent_activity_user_idx").on(t.organizationId, t.userId, t.occurredAt)],
);
