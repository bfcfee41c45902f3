// Memories: what the agents know across workstreams. This module is the only writer of the
// memories table. Who sees what: a member's memories (scope `member`, or `agent` for one of the
// member's agents) belong to that member and are read only for them; organization memories
// (owner null) are read by every member's turns and managed by admins. Every function takes the
// owner it acts for: a user id reaches only that member's memories, null only the
// organization's, so a route cannot ask for a memory it should not see. Text is kept as given
// (trimmed, storable, at most 2,000 characters); its normalized form (case, whitespace and
// punctuation folded) makes a repeated fact reinforce the memory it equals instead of a new row.
import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { executePrepared, type Tx, transaction } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { fromJson } from "@/db/json";
import { oneOwnedRow, ownedBy, type RowOwner } from "@/db/owned-rows";
import type { MemoryScope, MemorySource } from "@/db/schema/memories";
import { config } from "@/lib/config";
import { errorClass } from "@/lib/kernel/error-class";
import { AppError } from "@/lib/kernel/errors";
import { toStorableText } from "@/lib/text/storable";
import { embedTexts, isZeroVector, vectorLiteral } from "./embedding";
import { fullTextQuery } from "./retrieve";

export type { MemoryScope, MemorySource };

export type Memory = {
  id: string;
  organizationId: string;
  ownerId: string | null;
  agentId: string | null;
  scope: MemoryScope;
  importance: number;
  text: string;
  sources: MemorySource[];
  createdAt: string;
  updatedAt: string;
};

/** Whose memories a call reaches: one member's (userId), or the organization's (null). */
export type MemoryOwner = RowOwner;

/** The most sources one memory keeps (the newest); a fact said a hundred times needs no more. */
const SOURCES_MAX = 20;

/** Case, whitespace and punctuation folded: "Prefers e-mail." and "prefers e mail" are one. */
export function normalizeMemoryText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

/** A memory's text as it is stored: trimmed and storable, 1 to 2,000 characters (or refused). */
export function memoryText(text: string): string {
  const trimmed = toStorableText(text).trim();
  if (!trimmed) throw new AppError("bad_request:validation", { details: { field: "text" } });
  if ([...trimmed].length > config.memory.textMaxChars) {
    throw new AppError("bad_request:too_long", {
      details: { field: "text", max: config.memory.textMaxChars },
    });
  }
  return trimmed;
}

function importanceOf(value: number | undefined): number {
  if (value === undefined) return config.memory.defaultImportance;
  if (!Number.isInteger(value) || value < 1 || value > 10) {
    throw new AppError("bad_request:validation", { details: { field: "importance" } });
  }
  return value;
}

/**
 * The vector of a memory's text, or null: without an embedding model, for a text with nothing
 * to embed, or when the model fails (the memory is still kept, and full text still finds it).
 */
async function embeddingOf(text: string): Promise<string | null> {
  try {
    const [vector] = (await embedTexts([text])) ?? [];
    return vector && !isZeroVector(vector) ? vectorLiteral(vector) : null;
  } catch (error) {
    console.warn(`[memory] a memory is kept without its vector (${errorClass(error)})`);
    return null;
  }
}

type MemoryRow = {
  id: string;
  organization_id: string;
  owner_id: string | null;
  agent_id: string | null;
  scope: MemoryScope;
  importance: number;
  text: string;
  sources: MemorySource[] | string;
  created_at: Date | string;
  updated_at: Date | string;
};

const COLUMNS = sql.raw(
  `"id", "organization_id", "owner_id", "agent_id", "scope", "importance", "text", "sources", "created_at", "updated_at"`,
);

function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ownerId: row.owner_id,
    agentId: row.agent_id,
    scope: row.scope,
    importance: Number(row.importance),
    text: row.text,
    sources: fromJson(row.sources),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const MEMORY_CODES = { notFound: "not_found:memory", exists: "conflict:memory_exists" } as const;

export type NewMemory = {
  organizationId: string;
  /** The member it belongs to; null for an organization memory (added by an admin, or shared). */
  ownerId: string | null;
  /** For one of the member's agents only (scope `agent`). */
  agentId?: string | null;
  text: string;
  importance?: number;
  source?: MemorySource | null;
  /** Its vector when the caller has it already (null: none); computed here when left out. */
  embedding?: readonly number[] | null;
};

/**
 * Runs a statement on its own, or inside the caller's transaction (a digest writes its memories
 * and advances its cursor in one). PGlite has one connection: a statement sent outside an open
 * transaction would wait for it forever, so inside one everything goes through `tx`.
 */
async function run<T>(query: SQL, tx?: Tx): Promise<T[]> {
  if (!tx) return executePrepared<T>(query);
  const result = await tx.execute(query);
  return (Array.isArray(result) ? result : (result as unknown as { rows: T[] }).rows) as T[];
}

/**
 * Adds a memory, or reinforces the one whose normalized text it equals in the same scope (same
 * owner and agent): that one's importance goes up by one (to at most 10, and at least the new
 * importance) and it gains the new source. A repeat without a new source (the same source again,
 * or none) changes nothing, so a job that runs twice writes once. One statement, so concurrent
 * writers of the same fact end up with one row. `merged` says which happened.
 */
export async function createMemory(
  input: NewMemory,
  { tx }: { tx?: Tx } = {},
): Promise<{ memory: Memory; merged: boolean }> {
  const text = memoryText(input.text);
  const importance = importanceOf(input.importance);
  const agentId = input.ownerId ? (input.agentId ?? null) : null;
  const scope: MemoryScope = !input.ownerId ? "organization" : agentId ? "agent" : "member";
  const sources = input.source ? [input.source] : [];
  const embedding =
    input.embedding === undefined
      ? await embeddingOf(text)
      : input.embedding && !isZeroVector(input.embedding)
        ? vectorLiteral(input.embedding)
        : null;
  const [row] = await run<MemoryRow & { merged: boolean }>(
    sql`
    insert into "memories" ("id", "organization_id", "owner_id", "agent_id", "scope", "importance",
      "text", "normalized_text", "sources", "embedding")
    values (${`mem_${crypto.randomUUID().replaceAll("-", "")}`}, ${input.organizationId},
      ${input.ownerId}::text, ${agentId}::text, ${scope}, ${importance}, ${text},
      ${normalizeMemoryText(text)}, ${JSON.stringify(sources)}::jsonb, ${embedding}::vector)
    on conflict ("organization_id", coalesce("owner_id", ''), coalesce("agent_id", ''),
      md5("normalized_text"))
    do update set
      -- A source it has already (a job run again, the same call retried) changes nothing.
      "importance" = case when "memories"."sources" @> excluded."sources"
        then "memories"."importance"
        else least(10, greatest("memories"."importance" + 1, excluded."importance")) end,
      "sources" = case when "memories"."sources" @> excluded."sources" then "memories"."sources"
        else (select coalesce(jsonb_agg(s.value order by s.ord), '[]'::jsonb) from (
          select value, ord from jsonb_array_elements("memories"."sources" || excluded."sources")
            with ordinality as e(value, ord)
          order by ord desc limit ${SOURCES_MAX}) s) end,
      "embedding" = coalesce("memories"."embedding", excluded."embedding"),
      "updated_at" = now()
    returning ${COLUMNS}, (xmax <> 0) as "merged"`,
    tx,
  );
  if (!row) throw new Error("the memory insert returned no row");
  return { memory: toMemory(row), merged: Boolean(row.merged) };
}

/**
 * Reinforces a memory a new fact is a near duplicate of (by its vector): importance up by one
 * and the new source added, unless it has that source already. For the digest's
 * de-duplication; null when the memory is gone.
 */
export async function reinforceMemory(
  {
    id,
    organizationId,
    source,
  }: {
    id: string;
    organizationId: string;
    source: MemorySource | null;
  },
  { tx }: { tx?: Tx } = {},
): Promise<Memory | null> {
  const added = source ? JSON.stringify([source]) : "[]";
  // As with createMemory: a source it has already changes nothing.
  const [row] = await run<MemoryRow>(
    sql`
    update "memories" set
      "importance" = case when "sources" @> ${added}::jsonb then "importance"
        else least(10, "importance" + 1) end,
      "sources" = case when "sources" @> ${added}::jsonb then "sources"
        else "sources" || ${added}::jsonb end,
      "updated_at" = case when "sources" @> ${added}::jsonb then "updated_at" else now() end
    where "id" = ${id} and "organization_id" = ${organizationId}
    returning ${COLUMNS}`,
    tx,
  );
  return row ? toMemory(row) : null;
}

/**
 * The memory in the same scope whose vector is nearest to `embedding`, if its cosine similarity
 * is at least `minSimilarity` (the digest's near-duplicate check).
 */
export async function findSimilarMemory({
  owner,
  agentId = null,
  embedding,
  minSimilarity,
}: {
  owner: MemoryOwner;
  agentId?: string | null;
  embedding: readonly number[];
  minSimilarity: number;
}): Promise<{ memory: Memory; similarity: number } | null> {
  const vector = vectorLiteral(embedding);
  const [row] = await executePrepared<MemoryRow & { similarity: number }>(sql`
    select ${COLUMNS}, 1 - ("embedding" <=> ${vector}::vector) as "similarity"
    from "memories"
    where ${ownedBy(owner)} and "agent_id" is not distinct from ${agentId}::text
      and "embedding" is not null
    order by "embedding" <=> ${vector}::vector
    limit 1`);
  if (!row || Number(row.similarity) < minSimilarity) return null;
  return { memory: toMemory(row), similarity: Number(row.similarity) };
}

export async function getMemory({
  owner,
  id,
}: {
  owner: MemoryOwner;
  id: string;
}): Promise<Memory> {
  const row = await oneOwnedRow(
    executePrepared<MemoryRow>(sql`
      select ${COLUMNS} from "memories" where "id" = ${id} and ${ownedBy(owner)}`),
    MEMORY_CODES,
  );
  return toMemory(row);
}

export const MEMORY_PAGE_MAX = 100;

/**
 * The memories `owner` reaches, most recently changed first, `limit` at a time after the memory
 * `before` (its id, from the previous page). With `search`, only those whose words match any of
 * its words (full text) or whose text contains it as typed.
 */
export async function listMemories({
  owner,
  limit = 50,
  before = null,
  search = null,
}: {
  owner: MemoryOwner;
  limit?: number;
  before?: string | null;
  search?: string | null;
}): Promise<{ memories: Memory[]; hasMore: boolean }> {
  const take = Math.min(Math.max(1, Math.trunc(limit)), MEMORY_PAGE_MAX);
  const typed = search?.trim() || null;
  const words = typed ? fullTextQuery(typed) : "";
  const pattern = typed ? `%${typed.replace(/[\\%_]/gu, (c) => `\\${c}`)}%` : null;
  const rows = await executePrepared<MemoryRow>(sql`
    select ${COLUMNS} from "memories"
    where ${ownedBy(owner)} and (${before}::text is null or ("updated_at", "id") < (
      select c."updated_at", c."id" from "memories" c where c."id" = ${before}::text))
      and (${pattern}::text is null or "text" ilike ${pattern}::text
        or (${words}::text <> '' and "search" @@ to_tsquery('english', ${words}::text)))
    order by "updated_at" desc, "id" desc
    limit ${take + 1}`);
  return { memories: rows.slice(0, take).map(toMemory), hasMore: rows.length > take };
}

/**
 * Shares one of the member's memories with the organization: it becomes an organization memory
 * (every member's turns may use it; admins manage it), without its sources, which point into the
 * member's conversations. If the organization already knows the same fact, that memory is
 * reinforced and the member's copy goes. Callers must have the member's explicit confirmation.
 */
export async function shareMemory({
  owner,
  id,
}: {
  owner: MemoryOwner & { userId: string };
  id: string;
}): Promise<Memory> {
  try {
    const [row] = await executePrepared<MemoryRow>(sql`
      update "memories" set "owner_id" = null, "agent_id" = null, "scope" = 'organization',
        "sources" = '[]'::jsonb, "updated_at" = now()
      where "id" = ${id} and ${ownedBy(owner)}
      returning ${COLUMNS}`);
    if (!row) throw new AppError("not_found:memory");
    return toMemory(row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return transaction(async (tx) => {
    const mine = await oneOwnedRow(
      run<MemoryRow & { normalized_text: string }>(
        sql`select ${COLUMNS}, "normalized_text" from "memories" where "id" = ${id} and ${ownedBy(owner)}
          for update`,
        tx,
      ),
      MEMORY_CODES,
    );
    const shared = await oneOwnedRow(
      run<MemoryRow>(
        sql`update "memories" set "importance" = least(10, greatest("importance" + 1, ${mine.importance}::int)),
            "updated_at" = now()
          where "organization_id" = ${owner.organizationId} and "owner_id" is null
            and md5("normalized_text") = md5(${mine.normalized_text}::text)
            and "normalized_text" = ${mine.normalized_text}::text
          returning ${COLUMNS}`,
        tx,
      ),
      MEMORY_CODES,
    );
    await run(sql`delete from "memories" where "id" = ${id}`, tx);
    return toMemory(shared);
  });
}

/**
 * Changes a memory's text or importance. A new text gets a new vector; a text that equals
 * another memory of the same scope is refused (409) rather than silently merged.
 */
export async function updateMemory({
  owner,
  id,
  text,
  importance,
}: {
  owner: MemoryOwner;
  id: string;
  text?: string;
  importance?: number;
}): Promise<Memory> {
  const nextText = text === undefined ? null : memoryText(text);
  const nextImportance = importance === undefined ? null : importanceOf(importance);
  const embedding = nextText === null ? null : await embeddingOf(nextText);
  const row = await oneOwnedRow(
    executePrepared<MemoryRow>(sql`
      update "memories" set
        "text" = coalesce(${nextText}::text, "text"),
        "normalized_text" = coalesce(${nextText === null ? null : normalizeMemoryText(nextText)}::text,
          "normalized_text"),
        "embedding" = case when ${nextText}::text is null then "embedding" else ${embedding}::vector end,
        "importance" = coalesce(${nextImportance}::int, "importance"),
        "updated_at" = now()
      where "id" = ${id} and ${ownedBy(owner)}
      returning ${COLUMNS}`),
    MEMORY_CODES,
  );
  return toMemory(row);
}

export async function deleteMemory({ owner, id }: { owner: MemoryOwner; id: string }) {
  await oneOwnedRow(
    executePrepared<{ id: string }>(sql`
      delete from "memories" where "id" = ${id} and ${ownedBy(owner)} returning "id"`),
    MEMORY_CODES,
  );
}
