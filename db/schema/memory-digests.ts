// Where each organization's memory digest stands: the completed turns it has read. Written only
// by lib/memory/digest.ts, in the same transaction as the memories a digest writes, so a crash
// either keeps both or neither.
import { sql } from "drizzle-orm";
import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organization } from "./auth";

/** A digested turn near the cursor: kept so a turn that committed late is still read once. */
export type DigestedTurn = { id: string; endedAt: string };

export const memoryDigestCursors = pgTable("memory_digest_cursors", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organization.id, { onDelete: "cascade" }),
  /** The end of the latest turn digested. */
  endedAt: timestamp("ended_at", { withTimezone: true, mode: "string" }).notNull(),
  /** The turns digested that ended shortly before `endedAt` (see lib/memory/digest.ts). */
  recent: jsonb("recent").$type<DigestedTurn[]>().notNull().default(sql`'[]'::jsonb`),
  /** Bumped by every advance: a digest writes only if the cursor is still the one it read. */
  version: integer("version").notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
