// Memory retrieval at scale (section "retrieval"): bench/retrieval.ts in a child process per
// database, so the RSS it reports is the embedded database's and the retrieval code's alone.
// Postgres: 100,000 memories in one organization, each with a vector, full text and hybrid timed
// on them. PGlite: full text on 100,000; hybrid on a second organization of 10,000 with vectors
// (an HNSW index over 100,000 vectors of 1,536 dimensions is not what an embedded database is
// for), and the RSS after its index is built.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { REPO } from "../lib/app-build";
import type { DbKind } from "../lib/cli";

export type RetrievalTiming = {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  n: number;
  meanFound: number;
};

export type RetrievalResult = {
  db: DbKind;
  memories: number;
  vectors: number;
  queries: number;
  insertSeconds: number;
  indexSeconds: number;
  rssAfterIndexMb: number;
  rssEndMb: number;
  fullTextMs: RetrievalTiming;
  hybridMs: RetrievalTiming;
};

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
  const memories = quick ? 5_000 : 100_000;
  const vectors = db === "postgres" ? memories : quick ? 2_000 : 10_000;
  const json = path.join(workDir, `retrieval-${db}.json`);
  rmSync(json, { force: true });
  log(
    `${db}: retrieval over ${memories.toLocaleString("en")} memories (${vectors.toLocaleString("en")} with vectors)`,
  );
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "bench/retrieval.ts",
      `--db=${db}`,
      `--memories=${memories}`,
      `--vectors=${vectors}`,
      `--queries=${quick ? 50 : 200}`,
      `--pg-url=${pgUrl}`,
      `--json=${json}`,
    ],
    { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] },
  );
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`bench/retrieval.ts --db=${db} exited with ${code}`);
  return JSON.parse(readFileSync(json, "utf8")) as RetrievalResult;
}
