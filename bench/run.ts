// `npm run bench`: the Workstreams benchmark. Serves the production build with `next start`
// (PGlite and Postgres) beside a bare AI SDK baseline, and measures turn overhead, server CPU
// per turn, simultaneous turns, history paging and the chat page's weight and load time.
// Prints a table with the goals, writes bench/results/<name>-<timestamp>.json and latest.json.
// Only talks to 127.0.0.1; bounded by --deadline; kills its servers on any exit.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { type AppBuild, prepareApp, REPO } from "./lib/app-build";
import { armDeadline, installExitHandlers, killAllNow, onExit } from "./lib/children";
import { type DbKind, parseOptions } from "./lib/cli";
import {
  createDatabase,
  databaseStats,
  dropDatabase,
  dropStaleDatabases,
  insertHistoryPglite,
  insertHistoryPostgres,
} from "./lib/db";
import { Client, closeIdleSockets } from "./lib/http";
import { measureModelTtft, zeroDelayMessages } from "./lib/model-ttft";
import { loadAverage } from "./lib/procfs";
import { evaluateGoals, formatReport, type Results } from "./lib/report";
import { type Server, startApp, startBaseline } from "./lib/servers";
import { round, summarize } from "./lib/stats";
import { type BenchUser, signUpUser, signUpUsers } from "./lib/users";
import { chatPageScripts, chatRouteWeight, ratio, timeToUsable } from "./scenarios/client";
import { runConcurrency } from "./scenarios/concurrency";
import { runHistory } from "./scenarios/history";
import { runOverhead } from "./scenarios/overhead";

const options = parseOptions(process.argv.slice(2));
installExitHandlers();
const started = performance.now();
const startedAt = new Date();
// The deadline counts from after the build (a build alone can take minutes on 2 cores).
let softDeadline = Number.POSITIVE_INFINITY;
const log = (line: string) =>
  console.log(`[bench +${((performance.now() - started) / 1000).toFixed(0).padStart(3)}s] ${line}`);

const workDir = path.join(REPO, ".data", "bench", `run-${process.pid}`);
mkdirSync(workDir, { recursive: true });
if (!options.keep) onExit(() => rmSync(workDir, { recursive: true, force: true }));

const results: Results = {
  meta: {
    name: options.name,
    startedAt: startedAt.toISOString(),
    quick: options.quick,
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
    loadStart: loadAverage(),
    chunkDelayMs: options.chunkDelayMs,
    options: { ...options, sections: [...options.sections] },
  },
  overhead: {},
  concurrency: {},
  history: {},
  client: { status: "skipped" },
  goals: [],
  notes: [],
};

const wants = (section: "overhead" | "concurrency" | "history" | "client") =>
  options.sections.has(section);
const wantsTurns = wants("overhead") || wants("concurrency");
const clientDb: DbKind | undefined = options.dbs.includes("postgres") ? "postgres" : options.dbs[0];

async function main(): Promise<void> {
  log(`load average ${loadAverage()}; ${os.cpus().length} CPUs; node ${process.version}`);
  const build = await prepareApp(options.build, log);
  armDeadline(options.deadlineMs);
  softDeadline = Date.now() + options.deadlineMs - 90_000;
  results.meta.buildSource = build.source;
  results.meta.buildId = build.buildId;
  if (build.buildSeconds) results.meta.buildSeconds = round(build.buildSeconds, 0);
  if (build.warning) results.notes.push(`Build: ${build.warning}`);

  if (options.dbs.includes("postgres")) {
    const dropped = await dropStaleDatabases(options.pgUrl).catch((error: unknown) => {
      throw new Error(`cannot reach Postgres at ${options.pgUrl}: ${String(error)}`);
    });
    if (dropped.length) log(`dropped leftover databases ${dropped.join(", ")}`);
  }

  // Messages whose seeded first-token delay is 0 (see lib/model-ttft.ts), and the model's own
  // time to first token for each, measured in this process.
  let warmupTexts: string[] = [];
  let overheadTexts: string[] = [];
  let overheadTtft: number[] = [];
  let concurrencyTexts: string[] = [];
  if (wantsTurns) {
    const all = await zeroDelayMessages(
      options.turns + options.warmupTurns,
      (i) =>
        `Benchmark turn ${i}: outline the next step for project ${i}. [words:${options.overheadWords}]`,
    );
    warmupTexts = all.slice(0, options.warmupTurns);
    overheadTexts = all.slice(options.warmupTurns);
    overheadTtft = await measureModelTtft(overheadTexts, options.chunkDelayMs);
    concurrencyTexts = await zeroDelayMessages(
      50,
      (i) =>
        `Simultaneous turn ${i}: draft the status update for team ${i}. [words:${options.concurrencyWords}]`,
    );
    const concurrencyTtft = await measureModelTtft(
      concurrencyTexts.slice(0, 10),
      options.chunkDelayMs,
    );
    results.meta.modelTtftMs = {
      overhead: summarize(overheadTtft),
      concurrency: summarize(concurrencyTtft),
    };
    log(
      `model TTFT in-process (first-token delay 0, chunk delay ${options.chunkDelayMs} ms): p50 ${summarize(overheadTtft).p50} ms`,
    );
  }
  const maxLevel = wants("concurrency") ? Math.max(0, ...options.levels) : 0;
  const userCount = Math.max(wants("overhead") ? options.overheadUsers : 0, maxLevel);

  // The bare baseline.
  if (wantsTurns) {
    log("baseline: starting the bare AI SDK server");
    const server = await startBaseline({
      chunkDelayMs: options.chunkDelayMs,
      verbose: options.verbose,
    });
    try {
      const users: BenchUser[] = Array.from({ length: Math.max(1, userCount) }, () => ({
        client: new Client(server.url),
        email: "",
        workstreamId: "",
      }));
      const target = { server, users };
      if (wants("overhead")) {
        log(`baseline: ${overheadTexts.length} sequential turns`);
        results.overhead.baseline = await runOverhead({
          target,
          texts: overheadTexts,
          modelTtft: overheadTtft,
          warmupTexts,
          quietMs: 2_000,
          log,
        });
      }
      if (wants("concurrency")) {
        log("baseline: simultaneous turns");
        results.concurrency.baseline = await runConcurrency({
          target,
          levels: options.levels,
          turnsPerLevel: options.turnsPerLevel,
          texts: concurrencyTexts,
          log,
          deadline: softDeadline,
        });
      }
    } finally {
      await server.stop();
    }
  }

  for (const db of options.dbs) {
    if (Date.now() > softDeadline) {
      results.notes.push(`${db}: skipped, out of time`);
      continue;
    }
    await runDatabase(db, build, {
      userCount,
      warmupTexts,
      overheadTexts,
      overheadTtft,
      concurrencyTexts,
    });
  }

  const base = results.overhead.baseline;
  for (const db of ["pglite", "postgres"] as const) {
    const run = results.overhead[db];
    if (run && base) {
      run.ratioToBaselineP50 = round(run.overheadMs.p50 / Math.max(base.overheadMs.p50, 0.01));
      run.ratioToBaselineP99 = round(run.overheadMs.p99 / Math.max(base.overheadMs.p99, 0.01));
    }
  }
}

type Inputs = {
  userCount: number;
  warmupTexts: string[];
  overheadTexts: string[];
  overheadTtft: number[];
  concurrencyTexts: string[];
};

async function runDatabase(db: DbKind, build: AppBuild, inputs: Inputs): Promise<void> {
  const dbName = `bench_${process.pid}_${db}`;
  const pgliteDataDir = path.join(workDir, `pglite-${db}`);
  let databaseUrl: string | undefined;
  if (db === "postgres") databaseUrl = await createDatabase(options.pgUrl, dbName);
  const launch = (port?: number) =>
    startApp({
      kind: db,
      appDir: build.dir,
      pgliteDataDir,
      databaseUrl,
      chunkDelayMs: options.chunkDelayMs,
      verbose: options.verbose,
      port,
    });
  log(
    `${db}: starting next start (${db === "postgres" ? dbName : path.relative(REPO, pgliteDataDir)})`,
  );
  let server: Server = await launch();
  log(
    `${db}: ready in ${(server.startMs / 1000).toFixed(1)} s; serving pid ${server.pid}; process tree: ` +
      server.tree.map((p) => `${p.pid} ${p.name.split(" ")[0]}`).join(", "),
  );
  results.meta[`${db}Server`] = {
    pid: server.pid,
    tree: server.tree,
    startMs: round(server.startMs, 0),
  };
  try {
    let users: BenchUser[] = [];
    if (inputs.userCount > 0) {
      const t0 = performance.now();
      users = await signUpUsers(server.url, inputs.userCount, `${db}-`, 4);
      log(
        `${db}: signed up ${users.length} users in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
    const target = { server, users };
    if (wants("overhead")) {
      log(
        `${db}: ${inputs.overheadTexts.length} sequential turns over ${options.overheadUsers} workstreams`,
      );
      results.overhead[db] = await runOverhead({
        target: { server, users: users.slice(0, options.overheadUsers) },
        texts: inputs.overheadTexts,
        modelTtft: inputs.overheadTtft,
        warmupTexts: inputs.warmupTexts,
        ...(db === "postgres"
          ? {
              dbName,
              ...(options.quick ? {} : { dbStats: () => databaseStats(options.pgUrl, dbName) }),
            }
          : {}),
        // Postgres publishes its statistics within ~10 s of a backend going idle.
        quietMs: db === "postgres" && !options.quick ? 11_000 : 2_000,
        log,
      });
      const r = results.overhead[db];
      if (r)
        log(
          `${db}: overhead p50 ${r.overheadMs.p50} ms, p99 ${r.overheadMs.p99} ms, CPU/turn ${r.cpuPerTurnMs} ms`,
        );
    }
    if (wants("concurrency") && Date.now() < softDeadline) {
      log(`${db}: simultaneous turns`);
      results.concurrency[db] = await runConcurrency({
        target,
        levels: options.levels,
        turnsPerLevel: options.turnsPerLevel,
        texts: inputs.concurrencyTexts,
        log,
        deadline: softDeadline,
      });
    }

    // Bulk histories: one workstream for the history pages, and (client) one per size.
    const bulk: Array<{ user: BenchUser; count: number; prefix: string; purpose: string }> = [];
    if (wants("history")) {
      bulk.push({
        user: await signUpUser(server.url, `${db}-history`),
        count: options.historyMessages,
        prefix: "h_",
        purpose: "history",
      });
    }
    let weight: ReturnType<typeof chatRouteWeight> = null;
    const clientHere = wants("client") && db === clientDb;
    if (clientHere) {
      weight = chatRouteWeight(build.dir);
      if (!weight) {
        results.client = {
          status: "todo",
          note:
            "TODO: the chat page /w/[workstreamId] is not in this build yet (route-bundle-stats.json " +
            "has no /w/[…] route). Rerun `npm run bench -- --only=client` once it exists.",
        };
      } else {
        for (const count of options.clientMessages) {
          bulk.push({
            user: await signUpUser(server.url, `${db}-client-${count}`),
            count,
            prefix: `c${count}_`,
            purpose: "client",
          });
        }
      }
    }
    const insertSec = new Map<string, number>();
    if (bulk.length) {
      if (db === "pglite") {
        // One process per PGlite data dir: stop the server, insert, start it again (same port).
        await server.stop();
        for (const item of bulk) {
          const t0 = performance.now();
          await insertHistoryPglite(pgliteDataDir, item.user.workstreamId, item.count, item.prefix);
          insertSec.set(item.prefix, (performance.now() - t0) / 1000);
        }
        server = await launch(server.port);
        target.server = server;
        log(`${db}: restarted after the bulk insert; serving pid ${server.pid}`);
      } else if (databaseUrl) {
        for (const item of bulk) {
          const t0 = performance.now();
          await insertHistoryPostgres(databaseUrl, item.user.workstreamId, item.count, item.prefix);
          insertSec.set(item.prefix, (performance.now() - t0) / 1000);
        }
      }
      for (const item of bulk) {
        log(
          `${db}: inserted ${item.count.toLocaleString("en")} messages (${item.purpose}) in ${(insertSec.get(item.prefix) ?? 0).toFixed(1)} s`,
        );
      }
    }
    const historyItem = bulk.find((item) => item.purpose === "history");
    if (historyItem && Date.now() < softDeadline) {
      log(`${db}: history pages, ${options.historyRequests} requests per page kind`);
      results.history[db] = await runHistory({
        client: historyItem.user.client,
        workstreamId: historyItem.user.workstreamId,
        messages: historyItem.count,
        prefix: historyItem.prefix,
        insertSec: insertSec.get(historyItem.prefix) ?? 0,
        requests: options.historyRequests,
      });
      const h = results.history[db];
      if (h)
        log(
          `${db}: latest p99 ${h.latest.p99} ms, middle p99 ${h.middle.p99} ms, oldest p99 ${h.oldest.p99} ms`,
        );
    }
    if (clientHere && weight) {
      const first = bulk.find((b) => b.purpose === "client");
      log(`${db}: Chromium, JavaScript fetched for the chat page`);
      const fetched = first
        ? await chatPageScripts({
            baseUrl: server.url,
            client: first.user.client,
            workstreamId: first.user.workstreamId,
          })
        : undefined;
      const usable = [];
      for (const item of bulk.filter((b) => b.purpose === "client")) {
        if (Date.now() > softDeadline) break;
        log(`${db}: Chromium, chat page with ${item.count.toLocaleString("en")} messages`);
        usable.push(
          await timeToUsable({
            baseUrl: server.url,
            client: item.user.client,
            workstreamId: item.user.workstreamId,
            messages: item.count,
            repeats: options.clientRepeats,
            selector: options.composerSelector,
          }),
        );
      }
      const small = usable.find((u) => u.messages === Math.min(...options.clientMessages));
      const large = usable.find((u) => u.messages === Math.max(...options.clientMessages));
      const ok = usable.length > 0 && usable.every((u) => u.ms.n > 0);
      results.client = {
        status: ok ? "ok" : "failed",
        db,
        weight,
        ...(fetched ? { fetched } : {}),
        usable,
        ...(small && large && ok ? { ratio: ratio(large.ms.p50, small.ms.p50) } : {}),
        ...(ok ? {} : { note: usable.find((u) => u.firstError)?.firstError ?? "no samples" }),
      };
    }
  } finally {
    await server.stop();
    if (!options.keep) {
      if (db === "postgres") await dropDatabase(options.pgUrl, dbName).catch(() => undefined);
      rmSync(pgliteDataDir, { recursive: true, force: true });
      rmSync(`${pgliteDataDir}.lock`, { force: true });
    }
  }
}

function writeResults(): string {
  results.meta.loadEnd = loadAverage();
  results.meta.durationSec = round((performance.now() - started) / 1000, 0);
  if (wants("client") && results.client.status === "skipped" && !clientDb) {
    results.client = { status: "skipped", note: "no database variant selected" };
  }
  results.notes.push(
    "Overhead = POST → first text-delta event at the client, minus the model's own TTFT for the same message (measured in-process; messages chosen so the seeded first-token delay is 0, so the model TTFT is one chunk delay).",
    "CPU per turn = utime+stime of the serving process (all its threads) over the overhead run ÷ turns, including its idle background work; DB CPU = the Postgres backends of the bench database.",
    "Client and servers share this machine's CPUs: figures under concurrency include the load generator and Postgres competing for the same cores.",
    "Each simulated user sends its own x-forwarded-for address (as a reverse proxy would), so better-auth's per-address sign-up limit (3 per 10 s) applies per user rather than to the whole benchmark.",
  );
  results.goals = evaluateGoals(results);
  const dir = path.join(REPO, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, "-");
  const file = path.join(dir, `${options.name}-${stamp}.json`);
  const json = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(file, json);
  writeFileSync(path.join(dir, "latest.json"), json);
  return file;
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(`\n[bench] failed: ${message}`);
  results.notes.push(`The run failed: ${message.split("\n")[0]}`);
} finally {
  closeIdleSockets();
  killAllNow();
}
const file = writeResults();
const report = formatReport(results);
console.log(`\n${report}\n`);
// The markdown is what gets committed (the JSON is ignored): the latest full run, for review.
const markdown = path.join(REPO, "bench", "results", "latest.md");
writeFileSync(markdown, `# Benchmark: ${options.name}\n\n\`\`\`text\n${report}\n\`\`\`\n`);
console.log(
  `results: ${path.relative(REPO, file)} (and bench/results/latest.json, bench/results/latest.md)`,
);
process.exit(exitCode);
