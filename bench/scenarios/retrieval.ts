// Memory retrieval at scale (section "retrieval"): bench/retrieval.ts in a child process per
// database, so the RSS it reports is the embedded database's and the retrieval code's alone.
// Postgres: 100,000 memories in one organization, each with a vector, full text and hybrid timed
// on them. PGlite: full text on 100,000 memories; hybrid on another database of 10,000 with
// vectors (an HNSW index over 100,000 vectors of 1,536 dimensions is not what an embedded
// database is for), and the RSS after it is filled.
import path from "node:path";
import type { DbKind } from "../lib/cli";
import { runScript } from "../lib/script";

export type RetrievalTiming = {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  n: number;
  meanFound: number;
};

/** One bench/retrieval.ts run: a database with `memories` memories, `vectors` of them with one. */
export type RetrievalRun = {
  db: DbKind;
  memories: number;
  vectors: number;
  queries: number;
  insertSeconds: number;
  indexSeconds: number;
  rssAfterIndexMb: number;
  rssEndMb: number;
  fullTextMs: RetrievalTiming;
  hybridMs: RetrievalTiming | null;
};

/** Full text at scale, and hybrid where it is measured (the same run on Postgres). */
export type RetrievalResult = { fullText: RetrievalRun; hybrid: RetrievalRun | null };

async function runWorker(
  args: { db: DbKind; memories: number; vectors: boolean; queries: number; pgUrl: string },
  workDir: string,
  log: (line: string) => void,
): Promise<RetrievalRun> {
  log(
    `${args.db}: retrieval over ${args.memories.toLocaleString("en")} memories${args.vectors ? " with vectors" : ""}`,
  );
  return runScript<RetrievalRun>(
    "retrieval.ts",
    [
      `--db=${args.db}`,
      `--memories=${args.memories}`,
      `--vectors=${args.vectors ? args.memories : 0}`,
      `--queries=${args.queries}`,
      `--pg-url=${args.pgUrl}`,
    ],
    path.join(workDir, `retrieval-${args.db}-${args.memories}.json`),
  );
}

export async function runRetrieval({
  db,
  quick,
  pgUrl,
  workDir,
  log,
}: {
  db: DbKind;
  quick: boolean;
  pgUrl: string;
  workDir: string;
  log: (line: string) => void;
}): Promise<RetrievalResult> {
  const queries = quick ? 50 : 200;
  const atScale = quick ? 5_000 : 100_000;
  if (db === "postgres") {
    const run = await runWorker(
      { db, memories: atScale, vectors: true, queries, pgUrl },
      workDir,
      log,
    );
    return { fullText: run, hybrid: run };
  }
  const fullText = await runWorker(
    { db, memories: atScale, vectors: false, queries, pgUrl },
    workDir,
    log,
  );
  const hybrid = await runWorker(
    { db, memories: quick ? 2_000 : 10_000, vectors: true, queries, pgUrl },
    workDir,
    log,
  );
  return { fullText, hybrid };
}
