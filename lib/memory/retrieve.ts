// What a turn knows before the model is called: the pre-seeded top memories (no query) and the
// knowledge retrieved by the latest user message. Visibility is one rule everywhere: a member's
// memories (and their memories with the turn's agent) only in that member's turns; organization
// memories in everyone's. Full text (the memories' GIN index) always; with an embedding model,
// the nearest vectors (HNSW, cosine) too, fused with full text by reciprocal rank fusion.
//
// A turn asks for the top memories, whether any visible memory has a vector, and the knowledge
// its message retrieves (full text, then the nearest vectors once the message is embedded), each
// one query. The word statistics full text ranks by are the process's own copy: read on its
// first search, and again after the memories were analyzed or vacuumed (one statement, then the
// full-text matches once more).
import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { executePrepared } from "@/db/client";
import { config } from "@/lib/config";
import { processSingleton } from "@/lib/kernel/singleton";
import { embedTexts, isZeroVector, vectorLiteral } from "./embedding";
import { wordsOf } from "./offline-embedding";

/** A memory as the context builder and the recall tool take it. */
export type RetrievedMemory = { id: string; text: string; importance: number };

/** Whose turn it is: the member, the organization, and the agent (for agent-scoped memories). */
export type MemoryReader = { organizationId: string; userId: string; agentId: string };

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
function topMemoriesSql(reader: MemoryReader): SQL {
  return memoryJson(
    sql`select m."id", m."text", m."importance", m."updated_at" from "memories" m
      where ${visibleTo(reader)} and m."importance" >= ${config.memory.topImportance}
      order by m."importance" desc, m."updated_at" desc limit ${config.memory.topLimit}`,
    sql`r."importance" desc, r."updated_at" desc`,
  );
}

/**
 * The planner's statistics of the memories' search column (which ANALYZE keeps: autovacuum on
 * Postgres, the server's maintenance pass on PGlite): the lexemes a large share of memories hold,
 * each with that share, and the table's row estimate. They only change when the table is
 * analyzed or vacuumed, while reading them from pg_stats costs more than the search itself (on
 * PGlite the view alone takes milliseconds to parse and plan, then a thousand lexemes go through
 * text and back), so each process keeps them. `version` tells whether they still hold.
 */
export type WordStatistics = {
  version: string;
  /** The table's row estimate (0 before the first ANALYZE), as Postgres prints the real. */
  rows: string;
  /**
   * A JSON object from each lexeme to its share of rows, as Postgres prints the real: sent back,
   * it is the same value. One parameter Postgres reads in well under a millisecond, where a
   * thousand-element array takes several on PGlite.
   */
  shares: string;
  loadedAt: number;
};

/**
 * The statistics' version, a few function calls: the table's row estimate and the times it was
 * last analyzed and vacuumed (only ANALYZE writes the search column's statistics; VACUUM and
 * ANALYZE both write the row estimate).
 */
const STATISTICS_VERSION = sql`(select format('%s %s %s %s %s', k."reltuples",
    extract(epoch from pg_stat_get_last_analyze_time(k."oid")),
    extract(epoch from pg_stat_get_last_autoanalyze_time(k."oid")),
    extract(epoch from pg_stat_get_last_vacuum_time(k."oid")),
    extract(epoch from pg_stat_get_last_autovacuum_time(k."oid")))
  from pg_class k where k."oid" = 'memories'::regclass)`;

/**
 * Loaded statistics are read again after this long even when their version holds: an ANALYZE
 * inside a longer transaction reports its time before its statistics commit, and a statement
 * between the two would keep the old ones under the new version.
 */
const STATISTICS_MAX_AGE_MS = 5 * 60_000;

type StatisticsCache = { current?: WordStatistics; loading?: Promise<WordStatistics> };
const statisticsCache = processSingleton<StatisticsCache>("memory-word-statistics", () => ({}));

type StatisticsRow = {
  version: string | null;
  rows: string;
  lexemes: string[] | null;
  freqs: string[] | null;
};

async function loadWordStatistics(): Promise<WordStatistics> {
  const [row] = await executePrepared<StatisticsRow>(sql`
    select ${STATISTICS_VERSION} as "version",
      greatest(k."reltuples", 0)::text as "rows",
      s."lexemes", s."freqs"
    from pg_class k
    left join lateral (
      select s."most_common_elems"::text::text[] as "lexemes",
        s."most_common_elem_freqs"::text[] as "freqs"
      from pg_stats s
      where s."schemaname" = current_schema() and s."tablename" = 'memories'
        and s."attname" = 'search'
    ) s on true
    where k."oid" = 'memories'::regclass`);
  // The frequencies end with the minimum, the maximum and the null share: one per lexeme first.
  const freqs = row?.freqs ?? [];
  const shares = Object.fromEntries((row?.lexemes ?? []).map((lexeme, i) => [lexeme, freqs[i]]));
  return {
    version: row?.version ?? "",
    rows: row?.rows ?? "0",
    shares: JSON.stringify(shares),
    loadedAt: Date.now(),
  };
}

/** The statistics as this process holds them, read when missing, stale by age or dropped. */
export async function wordStatistics(): Promise<WordStatistics> {
  const held = statisticsCache.current;
  if (held && Date.now() - held.loadedAt < STATISTICS_MAX_AGE_MS) return held;
  statisticsCache.loading ??= loadWordStatistics()
    .then((loaded) => {
      statisticsCache.current = loaded;
      return loaded;
    })
    .finally(() => {
      statisticsCache.loading = undefined;
    });
  return statisticsCache.loading;
}

/**
 * Whether a statement that used `search` read the statistics at the version it found (the
 * statement selects `STATISTICS_VERSION` too). When it did not, the held statistics are dropped
 * and the caller reads its full-text matches again, on fresh ones. An empty query matches
 * nothing whatever the statistics say.
 */
function statisticsHeld(search: MemorySearch, found: string | null): boolean {
  const { statistics } = search;
  if (!statistics || (found ?? "") === statistics.version) return true;
  if (statisticsCache.current === statistics) statisticsCache.current = undefined;
  return false;
}

/**
 * A message's full-text query (from fullTextQuery) and the statistics that tell its words apart
 * (none for an empty query: it has no words to tell apart).
 */
type MemorySearch = { query: string; statistics: WordStatistics | null };

/** The full-text search for `text`, with the process's statistics (read if it has none). */
async function memorySearch(text: string): Promise<MemorySearch> {
  const query = fullTextQuery(text);
  return { query, statistics: query ? await wordStatistics() : null };
}

/**
 * The query's words as two tsqueries: `ranked` holds every word; `matched` only the rarest few.
 * A word that a large share of all memories holds (by the statistics above) tells little about
 * which memory is meant and makes the search visit every memory holding it, which at 100,000
 * memories is most of the cost. Such words only rank: a memory is a candidate when it holds one
 * of the query's rarer words (at most `matchMaxWords`, rarest first; when every word is common,
 * the two least common), and among the candidates one holding more of the words ranks higher.
 * Without statistics (a new or small table) every word counts as rare. The statistics go in as
 * parameters; the words become lexemes here, by the search column's own configuration.
 */
function queryWordsSql({ query, statistics }: MemorySearch): SQL {
  const { commonWordRows, matchMaxWords } = config.memory;
  const { rows, shares } = statistics ?? { rows: "0", shares: "{}" };
  return sql`(select
      to_tsquery('english', coalesce(string_agg(t."word", ' | ') filter (where t."pick"), '')) as "matched",
      to_tsquery('english', coalesce(string_agg(t."word", ' | '), '')) as "ranked"
    from (
      select w."word", w."n" <= ${matchMaxWords}
          and (w."rows" <= ${commonWordRows} or (w."rare" = 0 and w."n" <= 2)) as "pick"
      from (select w.*, count(*) filter (where w."rows" <= ${commonWordRows}) over () as "rare"
      from (
        select w."word", coalesce(max(l."freq"), 0) * ${rows}::real as "rows",
          row_number() over (order by coalesce(max(l."freq"), 0), min(w."at")) as "n"
        from unnest(string_to_array(${query}::text, ' | ')) with ordinality as w("word", "at")
        cross join lateral (
          -- The statistics are read in once (a sub-select), not once per lexeme.
          select ((select ${shares}::jsonb) ->> e."lexeme")::real as "freq"
          from unnest(tsvector_to_array(to_tsvector('english', w."word"))) as e("lexeme")
        ) l
        group by w."word"
      ) w) w
    ) t)`;
}

/** The reader's memories matching the search, best first (a JSON array). */
function fullTextMemoriesSql(reader: MemoryReader, search: MemorySearch): SQL {
  // The query is built once, before the scan: as a plain join, a plan that expects one memory
  // (a generic plan cannot know the organization) rebuilt it for every memory scanned, which
  // took 35 ms over 1,000 memories on PGlite.
  return memoryJson(
    sql`with q as materialized ${queryWordsSql(search)}
      select m."id", m."text", m."importance", m."updated_at",
        ts_rank(m."search", q."ranked") as "rank"
      from "memories" m, q
      where ${visibleTo(reader)} and m."search" @@ q."matched"
      order by "rank" desc, m."importance" desc, m."updated_at" desc
      limit ${config.memory.candidateLimit}`,
    sql`r."rank" desc, r."importance" desc, r."updated_at" desc`,
  );
}

/** Whether any memory the reader sees has a vector: without one, a vector search finds nothing. */
export async function anyMemoryVectors(reader: MemoryReader): Promise<boolean> {
  const [row] = await executePrepared<{ found: boolean }>(sql`select exists (
    select 1 from "memories" m where ${visibleTo(reader)} and m."embedding" is not null) as "found"`);
  return Boolean(row?.found);
}

type JsonListRow = { memories: RetrievedMemory[] | string | null };

function parseList(value: RetrievedMemory[] | string | null | undefined): RetrievedMemory[] {
  if (!value) return [];
  const list = typeof value === "string" ? (JSON.parse(value) as RetrievedMemory[]) : value;
  return list.map((memory) => ({ ...memory, importance: Number(memory.importance) }));
}

/** The pre-seeded memories of a member's turn with `agentId`: no query, most important first. */
export async function getTopMemories(reader: MemoryReader): Promise<RetrievedMemory[]> {
  const [row] = await executePrepared<JsonListRow>(
    sql`select ${topMemoriesSql(reader)} as "memories"`,
  );
  return parseList(row?.memories);
}

async function fullTextCandidates(reader: MemoryReader, text: string): Promise<RetrievedMemory[]> {
  // Statistics found changed are read again, once: changed again at once, they are being
  // written right now, and the search goes on with what it read.
  for (let attempt = 0; ; attempt++) {
    const search = await memorySearch(text);
    if (!search.query) return [];
    const [row] = await executePrepared<JsonListRow & { version: string | null }>(
      sql`select ${fullTextMemoriesSql(reader, search)} as "memories",
        ${STATISTICS_VERSION} as "version"`,
    );
    if (statisticsHeld(search, row?.version ?? null) || attempt > 0) {
      return parseList(row?.memories);
    }
  }
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
 * an embedding model is configured. `fullText` is the full-text list when the caller has it
 * already. A failing vector side leaves the full-text ranking
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
  const byWords = fullText ? Promise.resolve(fullText) : fullTextCandidates(reader, text);
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
