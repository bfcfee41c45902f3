// `node --conditions=react-server --import tsx bench/retrieval.ts --db=pglite|postgres
// [--memories=100000] [--vectors=0] [--queries=200] [--pg-url=URL] [--json=FILE]`:
// memory retrieval at scale, through the functions a turn calls (lib/memory/retrieve.ts).
//
// One organization gets `--memories` memories: half the organization's, 40% the reader's own,
// 10% another member's (which the reader never sees). Their words follow a Zipf law over a
// 50,000-word vocabulary whose 100 most frequent words are left out, as English stop words are,
// so a query's common words match hundreds of memories and its rare ones a few, as in real notes.
// Each query is a member's message of 12–20 words of the same law. Full text is timed; unless
// `--vectors=0`, every memory also carries the offline embedding model's vector and hybrid
// retrieval (embed the message, full text and nearest vectors in parallel, fused) is timed too.
// Prints one JSON object: p50/p95/p99 per kind, insert and index times, and this process's RSS
// after the insert and index (the embedded database lives in it).
//
// `npm run bench` runs it in child processes (section "retrieval"), so the RSS is the database's
// and the retrieval code's alone.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { parseFlags } from "./lib/script";

process.env.OPENAI_EMBEDDING_MODEL = "offline";

const flags = parseFlags(process.argv.slice(2));
const kind = flags.get("db") === "postgres" ? "postgres" : "pglite";
const memoryCount = Number(flags.get("memories") ?? 100_000);
// Either every memory has a vector or none has (then only full text is timed).
const withVectors = flags.get("vectors") !== "0";
const queryCount = Number(flags.get("queries") ?? 200);
const pgUrl = flags.get("pg-url") ?? "postgres://postgres@127.0.0.1:54329/postgres";
const jsonFile = flags.get("json");

// A deterministic generator (Park–Miller), so every run and machine gets the same corpus.
let seed = 20_261_126;
function random(): number {
  seed = (seed * 48_271) % 2_147_483_647;
  return seed / 2_147_483_647;
}

const SYLLABLES =
  "ba be bi bo bu da de di do du ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo vu".split(
    " ",
  );
const VOCABULARY_SIZE = 50_000;
const SKIPPED_COMMON = 100;
const vocabulary: string[] = [];
for (let i = 0; vocabulary.length < VOCABULARY_SIZE; i++) {
  // Three syllables and a letter: distinct words the English stemmer leaves whole.
  const a = SYLLABLES[i % SYLLABLES.length];
  const b = SYLLABLES[Math.floor(i / SYLLABLES.length) % SYLLABLES.length];
  const c = SYLLABLES[Math.floor(i / SYLLABLES.length ** 2) % SYLLABLES.length];
  vocabulary.push(`${a}${b}${c}x`);
}
// The Zipf law's cumulative weights from rank SKIPPED_COMMON + 1 on, for sampling by bisection.
const cumulative: number[] = [];
let total = 0;
for (let rank = SKIPPED_COMMON + 1; rank <= VOCABULARY_SIZE; rank++) {
  total += 1 / rank;
  cumulative.push(total);
}
function word(): string {
  const target = random() * total;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((cumulative[mid] ?? 0) < target) low = mid + 1;
    else high = mid;
  }
  return vocabulary[low] ?? "bax";
}
function sentence(min: number, max: number): string {
  const count = min + Math.floor(random() * (max - min + 1));
  return `${Array.from({ length: count }, word).join(" ")}.`;
}

type Timing = { p50: number; p95: number; p99: number; max: number; n: number };
function summarize(values: number[]): Timing {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  const r = (v: number | undefined) => Math.round((v ?? 0) * 100) / 100;
  return {
    p50: r(at(0.5)),
    p95: r(at(0.95)),
    p99: r(at(0.99)),
    max: r(sorted.at(-1)),
    n: sorted.length,
  };
}

async function main(): Promise<void> {
  const { openDatabase, setDatabase, getDb, closeDatabase } = await import("../db/client");
  const { migrateDatabase } = await import("../db/migrate");
  const schema = await import("../db/schema");
  const { offlineEmbedding } = await import("../lib/memory/offline-embedding");
  const { retrieveMemories } = await import("../lib/memory/retrieve");

  let dataDir: string | undefined;
  let database: string | undefined;
  let handle: Awaited<ReturnType<typeof openDatabase>>;
  if (kind === "postgres") {
    const { createDatabase } = await import("./lib/db");
    database = `bench_retrieval_${process.pid}`;
    handle = await openDatabase({ kind, url: await createDatabase(pgUrl, database), max: 4 });
  } else {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-retrieval-"));
    handle = await openDatabase({ kind, dataDir, lock: false });
  }
  try {
    setDatabase(handle);
    await migrateDatabase(handle);
    const db = await getDb();
    const users = ["reader", "other"].map((id) => ({
      id: `bench_${id}`,
      name: id,
      email: `${id}@example.test`,
    }));
    await db.insert(schema.user).values(users);
    await db.insert(schema.organization).values({ id: "bench_org", name: "Bench", slug: "bench" });

    // The HNSW index is built once after the insert (kept during it, every row would be a graph
    // insertion: several times slower for the same index).
    // Postgres builds the HNSW index once after the insert (kept during it, each of 100,000 rows
    // would be a graph insertion: several times slower for the same index); PGlite keeps it, as
    // a member's memories arrive one by one (a bulk build needs the whole graph in memory).
    const rebuildIndex = kind === "postgres" && withVectors;
    if (rebuildIndex) await db.execute(sql`drop index "memories_embedding_idx"`);
    const insertStarted = performance.now();
    const batch = kind === "postgres" ? 1_000 : 500;
    const insert = async (organizationId: string, count: number, withVectors: boolean) => {
      for (let start = 0; start < count; start += batch) {
        const rows = [];
        for (let i = start; i < Math.min(count, start + batch); i++) {
          const text = `${sentence(8, 30)} (${i})`;
          const share = i % 10;
          const ownerId = share < 5 ? null : share < 9 ? "bench_reader" : "bench_other";
          rows.push({
            id: `${organizationId}_${i}`,
            organizationId,
            ownerId,
            scope: ownerId ? ("member" as const) : ("organization" as const),
            importance: 1 + Math.floor(random() * 10),
            text,
            normalizedText: text.toLowerCase(),
            embedding: withVectors ? offlineEmbedding(text).map((v) => Math.fround(v)) : null,
          });
        }
        await db.insert(schema.memories).values(rows);
      }
    };
    await insert("bench_org", memoryCount, withVectors);
    const insertSeconds = (performance.now() - insertStarted) / 1000;
    const indexStarted = performance.now();
    if (rebuildIndex) {
      await db.execute(sql`set maintenance_work_mem = '1GB'`);
      await db.execute(
        sql`create index "memories_embedding_idx" on "memories" using hnsw ("embedding" vector_cosine_ops)`,
      );
    }
    await db.execute(sql`analyze "memories"`);
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    const rssAfterIndexMb = Math.round(process.memoryUsage().rss / 2 ** 20);

    const queries = Array.from({ length: queryCount + 20 }, () => sentence(12, 20));
    const time = async (organizationId: string, vectors: boolean) => {
      const reader = { organizationId, userId: "bench_reader", agentId: "chief" };
      const samples: number[] = [];
      let found = 0;
      for (const [index, text] of queries.entries()) {
        const started = performance.now();
        const { memories, failure } = await retrieveMemories({ reader, text, vectors });
        const elapsed = performance.now() - started;
        if (failure) throw failure;
        // The first 20 warm the caches and prepared statements up and are not counted.
        if (index >= 20) {
          samples.push(elapsed);
          found += memories.length;
        }
      }
      return { ...summarize(samples), meanFound: Math.round((found / queryCount) * 10) / 10 };
    };
    const fullText = await time("bench_org", false);
    const hybrid = withVectors ? await time("bench_org", true) : null;
    const result = {
      db: kind,
      memories: memoryCount,
      vectors: withVectors ? memoryCount : 0,
      queries: queryCount,
      insertSeconds: Math.round(insertSeconds),
      indexSeconds: Math.round(indexSeconds),
      rssAfterIndexMb,
      rssEndMb: Math.round(process.memoryUsage().rss / 2 ** 20),
      fullTextMs: fullText,
      hybridMs: hybrid,
    };
    const json = JSON.stringify(result);
    if (jsonFile) writeFileSync(jsonFile, json);
    console.log(json);
  } finally {
    await closeDatabase({ final: true }).catch(() => {});
    if (database && !flags.has("keep")) {
      const { dropDatabase } = await import("./lib/db");
      await dropDatabase(pgUrl, database).catch(() => {});
    }
    if (dataDir && !flags.has("keep")) rmSync(dataDir, { recursive: true, force: true });
    if (flags.has("keep")) console.error(`kept ${dataDir ?? database}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
