// What the agents know across workstreams: memories of a member (optionally with one agent) and
// of the organization. Written only by lib/memory/store.ts. A memory's words are indexed for
// full-text search (a generated tsvector with a GIN index); its embedding, when an embedding
// model is configured, for cosine search (HNSW).
import { type SQL, sql } from "drizzle-orm";
import {
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  vector,
} from "drizzle-orm/pg-core";
import { organization, user } from "./auth";

/** The embedding column's length: the size `OPENAI_EMBEDDING_DIMENSIONS` must name. */
export const MEMORY_EMBEDDING_DIMENSIONS = 1536;

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** The searchable words of a memory. The generated column and every query share it. */
export function memorySearchVector(textColumn: SQL | ReturnType<typeof text>): SQL {
  return sql`to_tsvector('english', ${textColumn})`;
}

export const MEMORY_SCOPES = ["member", "agent", "organization"] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/** Where a memory came from: the turn and the message it was learned from. */
export type MemorySource = { turnId: string; messageId: string };

export const memories = pgTable(
  "memories",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    /** The member it belongs to; null for an organization memory. */
    ownerId: text("owner_id").references(() => user.id, { onDelete: "cascade" }),
    /** With `agent` scope: the one agent of the member's it is for. */
    agentId: text("agent_id"),
    scope: text("scope", { enum: MEMORY_SCOPES }).notNull(),
    /** 1 (trivia) to 10 (always relevant); the top ones are pre-seeded into every turn. */
    importance: integer("importance").notNull().default(5),
    text: text("text").notNull(),
    /** Case, whitespace and punctuation folded: two memories with the same one are one. */
    normalizedText: text("normalized_text").notNull(),
    sources: jsonb("sources").$type<MemorySource[]>().notNull().default(sql`'[]'::jsonb`),
    search: tsvector("search")
      .notNull()
      .generatedAlwaysAs((): SQL => memorySearchVector(sql`"text"`)),
    embedding: vector("embedding", { dimensions: MEMORY_EMBEDDING_DIMENSIONS }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("memories_text_length", sql`char_length(${t.text}) between 1 and 2000`),
    check("memories_importance_range", sql`${t.importance} between 1 and 10`),
    // The scope says who sees it; the owner and agent columns must agree with it.
    check(
      "memories_scope_owner",
      sql`(${t.scope} = 'organization' and ${t.ownerId} is null and ${t.agentId} is null)
        or (${t.scope} = 'member' and ${t.ownerId} is not null and ${t.agentId} is null)
        or (${t.scope} = 'agent' and ${t.ownerId} is not null and ${t.agentId} is not null)`,
    ),
    // One row per fact and scope: a repeated fact reinforces the row it equals (hashed, since a
    // 2,000-character text could pass a btree entry's size limit).
    uniqueIndex("memories_dedup_idx").on(
      t.organizationId,
      sql`coalesce(${t.ownerId}, '')`,
      sql`coalesce(${t.agentId}, '')`,
      sql`md5(${t.normalizedText})`,
    ),
    // Top memories and listings: a member's own, or the organization's (owner null).
    index("memories_owner_idx").on(t.organizationId, t.ownerId, t.importance, t.updatedAt),
    index("memories_search_idx").using("gin", t.search),
    // Whether a reader has any memory with a vector (every turn asks) without visiting the rest.
    index("memories_with_vector_idx")
      .on(t.organizationId, t.ownerId)
      .where(sql`${t.embedding} is not null`),
    index("memories_embedding_idx").using("hnsw", t.embedding.op("vector_cosine_ops")),
  ],
);
