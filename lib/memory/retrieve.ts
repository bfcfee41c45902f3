// What a turn knows before the model is called: the pre-seeded top memories (no query) and the
// knowledge retrieved by the latest user message. Visibility is one rule everywhere: a member's
// memories (and their memories with the turn's agent) only in that member's turns; organization
// memories in everyone's. Full text (the memories' GIN index) always; with an embedding model,
// the nearest vectors (HNSW, cosine) too, fused with full text by reciprocal rank fusion.
//
// The turn's opening statement reads the top memories and the full-text matches itself (the SQL
// pieces below), so a turn without embeddings spends no statement on memory; with embeddings the
// vector candidates are one more statement once the message is embedded.
import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { executePrepared } from "@/db/client";
import { config } from "@/lib/config";
import { embedTexts, isZeroVector, vectorLiteral } from "./embedding";
import { wordsOf } from "./offline-embedding";

/** A memory as the context builder and the recall tool take it. */
export type RetrievedMemory = { id: string; text: string; importance: number };

/** Whose turn it is: the member, the organization, and the agent (for agent-scoped memories). */
export type MemoryReader = {
  organizationId: string | SQL;
  userId: string | SQL;
  agentId: string | SQL;
};

function visibleTo({ organizationId, userId, agentId }: MemoryReader): SQL {
  return sql`m."organization_id" = ${organizationId} and (m."owner_id" is null
    or (m."owner_id" = ${userId} and (m."agent_id" is null or m."agent_id" = ${agentId})))`;
}

/**
 * The full-text query of a message: its first words, any of which may match (OR), ranked by how
 * well each memory matches. All-words (AND) semantics, as websearch_to_tsquery and
 * plainto_tsquery give, would almost never match a whole sentence. Only letters and digits reach
 * to_tsquery, so no input can be a syntax error; a message of stop words or symbols is an empty
 * query, which matches nothing.
 */
export function fullTextQuery(text: string): string {
  return [...new Set(wordsOf(text))].slice(0, config.memory.queryMaxWords).join(" | ");
}

/** A JSON array of memories `{id, text, importance}` from a subquery aliased `r`. */
function memoryJson(rows: SQL, order: SQL): SQL {
  return sql`(select coalesce(json_agg(json_build_object('id', r."id", 'text', r."text",
      'importance', r."importance") order by ${order}), '[]'::json) from (${rows}) r)`;
}

/** The reader's memories of at least the top importance, most important first (a JSON array). */
export function topMemoriesSql(reader: MemoryReader): SQL {
  return memoryJson(
    sql`select m."id", m."text", m."importance", m."updated_at" from "memories" m
      where ${visibleTo(reader)} and m."importance" >= ${config.memory.topImportance}
      order by m."importance" desc, m."updated_at" desc limit ${config.memory.topLimit}`,
    sql`r."importance" desc, r."updated_at" desc`,
  );
}

/**
 * The query's words as two tsqueries: `ranked` holds every word; `matched` only the rarest few.
 * A word that a large share of all memories holds (the planner's statistics of the search
 * column, which ANALYZE keeps: autovacuum on Postgres, the server's maintenance pass on PGlite)
 * tells little about which memory is meant and makes the search visit every memory holding it,
 * which at 100,000 memories is most of the cost. Such words only rank: a memory is a candidate
 * when it holds one of the query's rarer words (at most `matchMaxWords`, rarest first; when every
 * word is common, the two least common), and among the candidates one holding more of the words
 * ranks higher. Without statistics (a new or small table) every word counts as rare.
 */
function queryWordsSql(query: string): SQL {
  const { commonWordRows, matchMaxWords } = config.memory;
  return sql`(select
      to_tsquery('english', coalesce(string_agg(t."word", ' | ') filter (where t."pick"), '')) as "matched",
      to_tsquery('english', coalesce(string_agg(t."word", ' | '), '')) as "ranked"
    from (
      select w."word", w."n" <= ${matchMaxWords}
          and (w."rows" <= ${commonWordRows} or (w."rare" = 0 and w."n" <= 2)) as "pick"
      from (select w.*, count(*) filter (where w."rows" <= ${commonWordRows}) over () as "rare"
      from (
        select w."word", coalesce(max(c."freq"), 0) * (
            select greatest(k."reltuples", 0) from pg_class k where k."oid" = 'memories'::regclass
          ) as "rows",
          row_number() over (order by coalesce(max(c."freq"), 0), min(w."at")) as "n"
        from unnest(string_to_array(${query}::text, ' | ')) with ordinality as w("word", "at")
        cross join lateral unnest(tsvector_to_array(to_tsvector('english', w."word"))) as l("lexeme")
        left join (
          select e."lexeme", e."freq" from pg_stats s
          cross join lateral unnest(s."most_common_elems"::text::text[], s."most_common_elem_freqs")
            as e("lexeme", "freq")
          where s."schemaname" = current_schema() and s."tablename" = 'memories'
            and s."attname" = 'search'
        ) c on c."lexeme" = l."lexeme"
        group by w."word"
      ) w) w
    ) t)`;
}

/** The reader's memories matching `query` (from fullTextQuery), best first (a JSON array). */
export function fullTextMemoriesSql(reader: MemoryReader, query: string): SQL {
  return memoryJson(
    sql`select m."id", m."text", m."importance", m."updated_at",
        ts_rank(m."search", q."ranked") as "rank"
      from "memories" m, ${queryWordsSql(query)} as q
      where ${visibleTo(reader)} and m."search" @@ q."matched"
      order by "rank" desc, m."importance" desc, m."updated_at" desc
      limit ${config.memory.candidateLimit}`,
    sql`r."rank" desc, r."importance" desc, r."updated_at" desc`,
  );
}

/** Whether any memory the reader sees has a vector: without one, a vector search finds nothing. */
export function anyVectorsSql(reader: MemoryReader): SQL {
  return sql`exists (select 1 from "memories" m
    where ${visibleTo(reader)} and m."embedding" is not null)`;
}

type JsonListRow = { memories: RetrievedMemory[] | string | null };

function parseList(value: RetrievedMemory[] | string | null | undefined): RetrievedMemory[] {
  if (!value) return [];
  const list = typeof value === "string" ? (JSON.parse(value) as RetrievedMemory[]) : value;
  return list.map((memory) => ({ ...memory, importance: Number(memory.importance) }));
}

/** The pre-seeded memories of a member's turn with `agentId`: no query, most important first. */
export async function getTopMemories(reader: {
  organizationId: string;
  userId: string;
  agentId: string;
}): Promise<RetrievedMemory[]> {
  const [row] = await executePrepared<JsonListRow>(
    sql`select ${topMemoriesSql(reader)} as "memories"`,
  );
  return parseList(row?.memories);
}

async function fullTextCandidates(reader: MemoryReader, query: string): Promise<RetrievedMemory[]> {
  if (!query) return [];
  const [row] = await executePrepared<JsonListRow>(
    sql`select ${fullTextMemoriesSql(reader, query)} as "memories"`,
  );
  return parseList(row?.memories);
}

/** The reader's memories nearest to `vector`, similar enough to count, nearest first. */
async function vectorCandidates(
  reader: MemoryReader,
  vector: readonly number[],
): Promise<RetrievedMemory[]> {
  const literal = vectorLiteral(vector);
  // Filtering runs after the HNSW scan, so the server scans on until enough rows pass it
  // (pgvector's iterative scan, switched on for every connection in db/client.ts); the outer
  // order puts its relaxed order right.
  const rows = await executePrepared<RetrievedMemory & { distance: number }>(sql`
    select r."id", r."text", r."importance", r."distance" from (
      select m."id", m."text", m."importance", m."embedding" <=> ${literal}::vector as "distance"
      from "memories" m
      where ${visibleTo(reader)} and m."embedding" is not null
      order by m."embedding" <=> ${literal}::vector
      limit ${config.memory.candidateLimit}
    ) r
    where r."distance" <= ${1 - config.memory.minSimilarity}
    order by r."distance"`);
  return rows.map(({ id, text, importance }) => ({ id, text, importance: Number(importance) }));
}

/**
 * Reciprocal rank fusion: each list gives a memory 1 / (k + rank); the sums decide. Ties go to
 * the memory more lists found, then the more important one, then the earlier list's order.
 */
export function fuseByRank(lists: RetrievedMemory[][], k = config.memory.rrfK): RetrievedMemory[] {
  const fused = new Map<string, { memory: RetrievedMemory; score: number; hits: number }>();
  for (const list of lists) {
    list.forEach((memory, index) => {
      const entry = fused.get(memory.id) ?? { memory, score: 0, hits: 0 };
      entry.score += 1 / (k + index + 1);
      entry.hits += 1;
      fused.set(memory.id, entry);
    });
  }
  return [...fused.values()]
    .sort(
      (a, b) =>
        b.score - a.score || b.hits - a.hits || b.memory.importance - a.memory.importance || 0,
    )
    .map((entry) => entry.memory);
}

export type Retrieval = {
  memories: RetrievedMemory[];
  /** Why the vector side failed (a provider error, a vector of another length), if it did. */
  failure: unknown;
};

/**
 * The reader's memories for `text`, best first: full text, fused with the nearest vectors when
 * an embedding model is configured. `fullText` is the full-text list when the caller already has
 * it (the turn's opening statement read it). A failing vector side leaves the full-text ranking
 * and says why in `failure`; the caller decides what a failure means.
 */
export async function retrieveMemories({
  reader,
  text,
  fullText,
  vectors = true,
  limit = config.memory.retrievedLimit,
  abortSignal,
}: {
  reader: MemoryReader;
  text: string;
  fullText?: RetrievedMemory[];
  /** False when the caller knows no visible memory has a vector: nothing is embedded then. */
  vectors?: boolean;
  limit?: number;
  abortSignal?: AbortSignal;
}): Promise<Retrieval> {
  const query = fullTextQuery(text);
  const byWords = fullText ? Promise.resolve(fullText) : fullTextCandidates(reader, query);
  let failure: unknown = null;
  const byVector = (async () => {
    // A query of symbols only has nothing to embed either. A long message is embedded by its
    // beginning: what it asks about is usually there, and models have an input limit.
    if (!query || !vectors) return null;
    const [vector] = (await embedTexts([[...text].slice(0, config.memory.textMaxChars).join("")], {
      abortSignal,
    })) ?? [undefined];
    return vector && !isZeroVector(vector) ? vectorCandidates(reader, vector) : null;
  })().catch((error: unknown) => {
    failure = error;
    return null;
  });
  const [words, nearest] = await Promise.all([byWords, byVector]);
  const memories = nearest ? fuseByRank([words, nearest]) : words;
  return { memories: memories.slice(0, limit), failure };
}
