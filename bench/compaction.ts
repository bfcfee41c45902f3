// `node --conditions=react-server --import tsx bench/compaction.ts [--runs=5] [--messages=60]
// [--chars=12000] [--chunk-delay=0,15]`: how long the context-compaction job takes with the
// offline model. Each run compacts a fresh workstream on an embedded database whose history
// (`--messages` messages of `--chars` characters, alternating member and agent) has passed 70% of
// the 200,000-token window, through the same function the job calls, and reads the duration the
// compaction recorded (claim to write: reading the range, the summary, the write). The offline
// model's own pacing is `--chunk-delay` ms per 54 characters of its answer, as in the app
// (OFFLINE_MODEL_CHUNK_DELAY_MS: 15 by default, 0 in tests). Prints a table; writes
// bench/results/compaction.json. The turn's path does not include any of it.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseFlags } from "./lib/script";

const flags = parseFlags(process.argv.slice(2));
const runs = Number(flags.get("runs") ?? 5);
const messageCount = Number(flags.get("messages") ?? 60);
const chars = Number(flags.get("chars") ?? 12_000);
const delays = (flags.get("chunk-delay") ?? "0,15").split(",").map(Number);

const WORDS =
  "ledger invoice refund migration region cutover rollback runbook finance review load test peak volume dual write consistency audit".split(
    " ",
  );

function text(index: number): string {
  const words: string[] = [`Part ${index + 1} of the billing migration notes.`];
  let seed = index * 7_919 + 1;
  while (words.join(" ").length < chars) {
    seed = (seed * 48_271) % 2_147_483_647;
    words.push(WORDS[seed % WORDS.length] ?? "ledger", String(seed % 10_000));
  }
  return words.join(" ");
}

type Row = { chunkDelayMs: number; runs: number; p50Ms: number; maxMs: number; messages: number };

async function measure(chunkDelayMs: number): Promise<Row> {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = String(chunkDelayMs);
  const { openDatabase, setDatabase, closeDatabase, getDb } = await import("../db/client");
  const { migrateDatabase } = await import("../db/migrate");
  const schema = await import("../db/schema");
  const { countTokens } = await import("../lib/turns/messages");
  const { compactWorkstream } = await import("../lib/compaction/compact");
  const durations: number[] = [];
  let compacted = 0;
  // Run -1 warms up (module loading, the tokenizer's tables) and is not counted.
  for (let run = -1; run < runs; run++) {
    const handle = await openDatabase({ kind: "pglite", dataDir: "memory://", lock: false });
    setDatabase(handle);
    await migrateDatabase(handle);
    const db = await getDb();
    const id = `bench_${run + 1}`;
    await db.insert(schema.user).values({ id, name: "Bench", email: `${id}@example.test` });
    await db.insert(schema.organization).values({ id, name: "Bench", slug: id });
    await db.insert(schema.workstreams).values({
      id,
      organizationId: id,
      ownerId: id,
      mode: "group",
      agentId: "chief",
      title: "Billing migration",
    });
    const rows = Array.from({ length: messageCount }, (_, index) => {
      const parts = [{ type: "text", text: text(index) }];
      return {
        workstreamId: id,
        id: `m_${index}`,
        role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
        parts,
        tokenCount: countTokens(parts),
      };
    });
    for (let at = 0; at < rows.length; at += 20) {
      await db.insert(schema.messages).values(rows.slice(at, at + 20));
    }
    const started = performance.now();
    const outcome = await compactWorkstream({ workstreamId: id, turnId: "none" });
    const wall = performance.now() - started;
    if (outcome.compacted) {
      compacted = outcome.messages;
      if (run >= 0) durations.push(outcome.durationMs);
    } else {
      console.log(`[compaction] run ${run}: not compacted (${outcome.reason}); wall ${wall} ms`);
    }
    await closeDatabase();
  }
  durations.sort((a, b) => a - b);
  return {
    chunkDelayMs,
    runs: durations.length,
    p50Ms: durations[Math.floor(durations.length / 2)] ?? Number.NaN,
    maxMs: durations.at(-1) ?? Number.NaN,
    messages: compacted,
  };
}

const results: Row[] = [];
for (const delay of delays) results.push(await measure(delay));
console.log(
  `\nCompaction job with the offline model: ${messageCount} messages of ~${chars} characters\n`,
);
console.log("| chunk delay | runs | compacted messages | p50 | max |");
console.log("| ---: | ---: | ---: | ---: | ---: |");
for (const row of results) {
  console.log(
    `| ${row.chunkDelayMs} ms | ${row.runs} | ${row.messages} | ${row.p50Ms} ms | ${row.maxMs} ms |`,
  );
}
const out = path.resolve("bench/results");
mkdirSync(out, { recursive: true });
writeFileSync(
  path.join(out, "compaction.json"),
  JSON.stringify({ at: new Date().toISOString(), messageCount, chars, results }, null, 2),
);
process.exit(0);
