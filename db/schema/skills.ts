// Skills: reusable procedures (a name, when to use it, its steps) learned from a member's
// conversations. Written only by lib/skills/store.ts. A skill belongs to the member it was
// learned from (owner set) until that member shares it with the organization (owner null), which
// is an explicit act; every member's agents may then use it.
import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organization, user } from "./auth";
import type { MemorySource } from "./memories";

export const skills = pgTable(
  "skills",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    /** The member it belongs to; null once shared with the organization. */
    ownerId: text("owner_id").references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Case, whitespace and punctuation folded: one skill per name and owner. */
    normalizedName: text("normalized_name").notNull(),
    whenToUse: text("when_to_use").notNull(),
    steps: jsonb("steps").$type<string[]>().notNull(),
    /** The turns and messages it was learned from (ids only). */
    sources: jsonb("sources").$type<MemorySource[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("skills_name_length", sql`char_length(${t.name}) between 1 and 120`),
    check("skills_when_length", sql`char_length(${t.whenToUse}) between 1 and 500`),
    check("skills_steps_count", sql`jsonb_array_length(${t.steps}) between 1 and 20`),
    uniqueIndex("skills_name_idx").on(
      t.organizationId,
      sql`coalesce(${t.ownerId}, '')`,
      t.normalizedName,
    ),
    // A member's own and the organization's (owner null), most recently changed first.
    index("skills_owner_idx").on(t.organizationId, t.ownerId, t.updatedAt),
  ],
);
