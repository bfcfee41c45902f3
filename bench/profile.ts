// `node --conditions=react-server --import tsx bench/profile.ts [--server=next|source|baseline]
// [--db=postgres|pglite] [--turns=N] [--level=N] [--rounds=N] [--build=auto|reuse] [--statements]`:
// CPU profiles of a server, taken through its inspector over exact windows (5 s idle, 300
// history-page GETs, N sequential turns, rounds of simultaneous turns), summarized by package,
// hottest functions (with callers), the app's own functions by self time, and lib/ frames by
// inclusive time (file:line). `--server=next`
// profiles `next start` on the bench build (minified frames are mapped back through the build's
// source maps; lines refer to the copy of the sources the build was made from, .data/bench/app);
// `--server=source` serves the route handlers from source (tests/support/serve.ts under tsx);
// `--server=baseline` profiles the bare AI SDK server. `--statements` (Postgres) logs the bench
// database's statements and counts them per turn. `--analyze=FILE.cpuprofile` summarizes a saved
// profile again. Writes a JSON summary to bench/results/ and the .cpuprofile files to
// .data/bench/profiles/. (react-server: the condition under which `server-only` lets the app's
// server modules load.)
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { prepareApp, REPO } from "./lib/app-build";
import { armDeadline, installExitHandlers, killAllNow, onExit } from "./lib/children";
import { createDatabase, dropDatabase } from "./lib/db";
import { Client, closeIdleSockets } from "./lib/http";
import { openInspector } from "./lib/inspector";
import { zeroDelayMessages } from "./lib/model-ttft";
import { cpuMs } from "./lib/procfs";
import { type Server, startApp, startBaseline, startSourceServer } from "./lib/servers";
import { round } from "./lib/stats";
import { runTurn } from "./lib/turns";
import { type BenchUser, signUpUsers } from "./lib/users";

type CallFrame = {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
};
type ProfileNode = { id: number; callFrame: CallFrame; hitCount?: number; children?: number[] };
type CpuProfile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key ?? "", value ?? "true"] as const;
  }),
);
const serverKind =
  (["next", "baseline"] as const).find((k) => k === flags.get("server")) ?? "source";
const buildMode =
  (["auto", "snapshot", "shadow", "reuse"] as const).find((m) => m === flags.get("build")) ??
  "auto";
const db = flags.get("db") === "pglite" ? "pglite" : "postgres";
const turns = Number(flags.get("turns") ?? 200);
const level = Number(flags.get("level") ?? 100);
const rounds = Number(flags.get("rounds") ?? 2);
const pgUrl = flags.get("pg-url") ?? "postgres://postgres@127.0.0.1:54329/postgres";
const chunkDelayMs = Number(flags.get("chunk-delay") ?? 15);
/** Postgres only: log the bench database's statements and count them per turn. */
const countStatements = flags.get("statements") === "true";

installExitHandlers();
armDeadline(15 * 60_000);
const log = (line: string) => console.log(`[profile] ${line}`);
const workDir = path.join(REPO, ".data", "bench", `profile-${process.pid}`);
mkdirSync(workDir, { recursive: true });
onExit(() => rmSync(workDir, { recursive: true, force: true }));

const maps = new Map<string, SourceMap | null>();

function sourceMapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    map = null;
    try {
      if (existsSync(`${file}.map`))
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
}

type Place = { file: string; line: number; pkg: string | null; ours: boolean };

/**
 * Where a frame's function is defined: repo-relative for our code ("lib/turns/run-turn.ts:41"),
 * the package for node_modules. Frames in the Next build's minified chunks go through their
 * source maps back to the original file and line.
 */
function place(frame: CallFrame): Place {
  if (frame.url.startsWith("wasm://")) {
    // The only WebAssembly in the server is PGlite's Postgres.
    return { file: "postgres.wasm", line: 0, pkg: "@electric-sql/pglite", ours: false };
  }
  let file = frame.url.startsWith("file://") ? fileURLToPath(frame.url) : frame.url;
  let line = frame.lineNumber + 1;
  const chunk = path.basename(file);
  if (file.includes(`${path.sep}.next${path.sep}`)) {
    const entry = sourceMapOf(file)?.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry && "originalSource" in entry && entry.originalSource) {
      const source = decodeURIComponent(entry.originalSource);
      file = source.startsWith("file://")
        ? fileURLToPath(source)
        : path.resolve(
            path.dirname(file),
            source.replace(/^turbopack:\/\/\/\[project\]\//, `${REPO}/`),
          );
      line = entry.originalLine + 1;
    }
  }
  const nm = file.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = file.slice(nm + "node_modules/".length).split("/");
    let pkg = rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? "?");
    // Packages shipping their own source maps (drizzle-orm) come out as node_modules/src/…:
    // the chunk's name still says which package it is.
    const fromChunk = /node_modules_(@[\w.-]+?_[\w.-]+?|[\w.-]+?)_[\w]+\._\.js$/.exec(chunk)?.[1];
    if (pkg === "src" && fromChunk) pkg = fromChunk.replace(/^(@[\w.-]+?)_/, "$1/");
    return { file: path.basename(file), line, pkg, ours: false };
  }
  if (file.startsWith(REPO)) {
    const rel = path.relative(REPO, file).replace(/^\.data\/bench\/app(-staging)?\//, "");
    return { file: rel, line, pkg: null, ours: /^(lib|db|app|components)\//.test(rel) };
  }
  return { file: file || "(native)", line, pkg: null, ours: false };
}

/** Line of `name` in `file`: the profile's own line if it shows the name, else its definition. */
function sourceLine(file: string, name: string, line: number): number {
  const full = path.join(REPO, file);
  if (!existsSync(full)) return line;
  const lines = readFileSync(full, "utf8").split("\n");
  const bare = name.replace(/^.*\./, "");
  if (!/^[A-Za-z_$][\w$]{2,}$/.test(bare) || lines[line - 1]?.includes(bare)) return line;
  const definition = new RegExp(
    `(function\\*?\\s+${bare}\\b|\\b${bare}\\s*[=:]\\s*(async\\s*)?(\\(|function)|^\\s*(async\\s+|static\\s+|private\\s+|override\\s+)*\\*?${bare}\\s*[(<])`,
  );
  const index = lines.findIndex((text) => definition.test(text));
  return index >= 0 ? index + 1 : line;
}

function summarizeProfile(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const minified = serverKind === "next";
  const keyOf = (frame: CallFrame) => {
    const name = frame.functionName || "(anonymous)";
    if (!frame.url) return { label: name, ours: false, pkg: null as string | null, native: true };
    const where = place(frame);
    const line = where.ours && !minified ? sourceLine(where.file, name, where.line) : where.line;
    // Minified builds mangle names; the mapped file:line is the function's definition.
    const shown = minified && name.length <= 2 ? "" : `${name} `;
    const label = `${shown}${where.pkg ? `[${where.pkg}] ` : ""}${where.file}:${line}`;
    return { label, ours: where.ours, pkg: where.pkg, native: where.file.startsWith("node:") };
  };
  const labels = new Map<number, ReturnType<typeof keyOf>>();
  const label = (id: number) => {
    let value = labels.get(id);
    if (!value) {
      const node = byId.get(id);
      value = node ? keyOf(node.callFrame) : { label: "?", ours: false, pkg: null, native: true };
      labels.set(id, value);
    }
    return value;
  };
  const self = new Map<string, number>();
  const callers = new Map<string, Map<string, number>>();
  const inclusive = new Map<string, number>();
  const packages = new Map<string, number>();
  // The app's own functions by self time (native work they call counted for them).
  const appSelf = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const own = label(id);
    if (own.label === "(idle)") continue;
    busyUs += us;
    self.set(own.label, (self.get(own.label) ?? 0) + us);
    // Native and node-internal work (socket writes, stream plumbing) counts for the package
    // that called it; (program) and (garbage collector) stay as they are.
    let owner = own;
    for (let at = parent.get(id); owner.native && at !== undefined; at = parent.get(at)) {
      const frame = label(at);
      if (!frame.native && frame.label !== "(root)") owner = frame;
    }
    const bucket =
      owner.pkg ??
      (owner.ours
        ? "app code (lib/, db/, app/, components/)"
        : owner.native
          ? own.label
          : owner.label);
    packages.set(bucket, (packages.get(bucket) ?? 0) + us);
    if (!owner.pkg && owner.ours) appSelf.set(owner.label, (appSelf.get(owner.label) ?? 0) + us);
    // The nearest caller that is not a node internal or native frame.
    for (let at = parent.get(id); at !== undefined; at = parent.get(at)) {
      const frame = label(at);
      if (frame.native || frame.label === "(root)") continue;
      const map = callers.get(own.label) ?? new Map<string, number>();
      map.set(frame.label, (map.get(frame.label) ?? 0) + us);
      callers.set(own.label, map);
      break;
    }
    // Inclusive time of every lib/ frame on the stack (once per frame per sample).
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = label(at);
      if (frame.ours && !seen.has(frame.label)) {
        seen.add(frame.label);
        inclusive.set(frame.label, (inclusive.get(frame.label) ?? 0) + us);
      }
    }
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({
        name,
        ms: round(us / 1000, 1),
        pct: round((100 * us) / Math.max(1, busyUs), 1),
      }));
  return {
    totalMs: round(totalUs / 1000, 0),
    busyMs: round(busyUs / 1000, 0),
    topSelf: top(self, 30).map((row) => ({
      ...row,
      callers: [...(callers.get(row.name) ?? new Map<string, number>())]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 2)
        .map(([name, us]) => `${name} (${round(us / 1000, 0)} ms)`),
    })),
    topLibInclusive: top(inclusive, 30),
    topAppSelf: top(appSelf, 20),
    byPackage: top(packages, 20),
  };
}

type PrintedSummary = ReturnType<typeof summarizeProfile> & {
  window: string;
  cpuPerTurnMs: number;
  file: string;
};

function printSummary(summary: PrintedSummary): void {
  const row = (r: { pct: number; ms: number; name: string }) =>
    `  ${r.pct.toFixed(1).padStart(5)}%  ${r.ms.toFixed(0).padStart(6)} ms  ${r.name}`;
  console.log(
    `\n== ${summary.window}: ${summary.busyMs} ms busy of ${summary.totalMs} ms sampled ` +
      `(${summary.cpuPerTurnMs} ms CPU per turn, request or idle second) — ${summary.file}`,
  );
  console.log("\nBy package (self time; native work counted for the package calling it):");
  for (const r of summary.byPackage) console.log(row(r));
  console.log("\nHottest functions (self time), with their nearest caller outside node internals:");
  for (const r of summary.topSelf.slice(0, 20)) {
    console.log(row(r));
    for (const caller of r.callers) console.log(`             ← ${caller}`);
  }
  console.log("\nThe app's own functions by self time (native work they call included):");
  for (const r of summary.topAppSelf) console.log(row(r));
  console.log("\nlib/ frames by inclusive time:");
  for (const r of summary.topLibInclusive.slice(0, 25)) console.log(row(r));
}

/** The server's V8 inspector: CPU profiles of exactly the measured windows. */
async function connectProfiler(output: () => string) {
  const session = await openInspector(output);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 250 });
  return {
    start: () => session.send("Profiler.start"),
    stop: async () =>
      ((await session.send("Profiler.stop")).result as { profile: CpuProfile }).profile,
    close: () => session.close(),
  };
}

async function main() {
  const dbName = `bench_${process.pid}_prof`;
  const databaseUrl = db === "postgres" ? await createDatabase(pgUrl, dbName) : undefined;
  const statementLog =
    countStatements && databaseUrl ? await enableStatementLog(pgUrl, dbName) : undefined;
  const common = {
    kind: db as "pglite" | "postgres",
    databaseUrl,
    pgliteDataDir: path.join(workDir, "pglite"),
    chunkDelayMs,
    verbose: false,
    nodeArgs: ["--inspect=127.0.0.1:0"],
  };
  let server: Server;
  if (serverKind === "next") {
    const build = await prepareApp(buildMode, log);
    server = await startApp({ ...common, appDir: build.dir });
  } else if (serverKind === "baseline") {
    server = await startBaseline(common);
  } else {
    server = await startSourceServer(common);
  }
  log(`${serverKind} server (${db}) pid ${server.pid} at ${server.url}`);
  const profiles: Array<{ window: string; profile: CpuProfile; cpuPerTurnMs: number }> = [];
  let statements: Awaited<ReturnType<typeof countLoggedStatements>> | undefined;
  try {
    const inspector = await connectProfiler(server.output);
    const users: BenchUser[] =
      serverKind === "baseline"
        ? Array.from({ length: Math.max(10, level) }, () => ({
            client: new Client(server.url),
            email: "",
            workstreamId: "",
          }))
        : await signUpUsers(server.url, Math.max(10, level), "prof-", 4);
    const texts = await zeroDelayMessages(
      Math.max(turns, 20),
      (i) => `Profile turn ${i}: outline the next step for project ${i}. [words:60]`,
    );
    const target = { server, users };
    for (let i = 0; i < 20; i++) await runTurn(target, i % 10, texts[i] ?? "");
    // Idle: what the server does between turns (lease loop, reaper, timers).
    await new Promise((r) => setTimeout(r, 1_000));
    await inspector.start();
    let idle0 = cpuMs(server.pid);
    await new Promise((r) => setTimeout(r, 5_000));
    profiles.push({
      window: "5 s idle",
      profile: await inspector.stop(),
      cpuPerTurnMs: round((cpuMs(server.pid) - idle0) / 5),
    });
    log(`idle: ${round((cpuMs(server.pid) - idle0) / 5)} ms CPU per second`);
    if (serverKind !== "baseline") {
      // History pages (take=6) of a workstream with a few dozen messages.
      const user = users[0];
      if (user) {
        const path = `/api/workstreams/${user.workstreamId}/messages?take=6`;
        for (let i = 0; i < 20; i++) await user.client.timedGet(path);
        await inspector.start();
        idle0 = cpuMs(server.pid);
        for (let i = 0; i < 300; i++) await user.client.timedGet(path);
        profiles.push({
          window: "300 history-page GETs",
          profile: await inspector.stop(),
          cpuPerTurnMs: round((cpuMs(server.pid) - idle0) / 300),
        });
        log(`history page: ${round((cpuMs(server.pid) - idle0) / 300)} ms CPU per request`);
      }
    }
    await inspector.start();
    const logStart = statementLog ? statSync(statementLog).size : 0;
    let cpu0 = cpuMs(server.pid);
    for (let i = 0; i < turns; i++) await runTurn(target, i % 10, texts[i] ?? "");
    if (statementLog) {
      await new Promise((r) => setTimeout(r, 500));
      statements = await countLoggedStatements(pgUrl, dbName, statementLog, logStart, turns);
    }
    await new Promise((r) => setTimeout(r, 300));
    const sequentialCpu = (cpuMs(server.pid) - cpu0) / turns;
    profiles.push({
      window: `${turns} sequential turns`,
      profile: await inspector.stop(),
      cpuPerTurnMs: round(sequentialCpu),
    });
    log(`${turns} sequential turns: ${round(sequentialCpu)} ms CPU per turn (profiler on)`);
    if (level > 0 && rounds > 0) {
      await inspector.start();
      cpu0 = cpuMs(server.pid);
      for (let r = 0; r < rounds; r++) {
        await Promise.all(
          users
            .slice(0, level)
            .map((_, u) => runTurn(target, u, texts[(u + r) % texts.length] ?? "")),
        );
      }
      const concurrentCpu = (cpuMs(server.pid) - cpu0) / (rounds * level);
      profiles.push({
        window: `${rounds} × ${level} simultaneous turns`,
        profile: await inspector.stop(),
        cpuPerTurnMs: round(concurrentCpu),
      });
      log(
        `${rounds} rounds of ${level} simultaneous turns: ${round(concurrentCpu)} ms CPU per turn`,
      );
    }
    inspector.close();
  } finally {
    await server.stop();
    if (databaseUrl) await dropDatabase(pgUrl, dbName).catch(() => undefined);
  }
  const resultsDir = path.join(REPO, "bench", "results");
  // .cpuprofile files are large and not git-ignored under bench/: they go to .data/bench.
  const profilesDir = path.join(REPO, ".data", "bench", "profiles");
  mkdirSync(profilesDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const summaries = [];
  for (const [index, { window, profile, cpuPerTurnMs }] of profiles.entries()) {
    const kept = path.join(
      profilesDir,
      `profile-${serverKind}-${db}-${stamp}-${index + 1}.cpuprofile`,
    );
    writeFileSync(kept, JSON.stringify(profile));
    summaries.push({
      window,
      cpuPerTurnMs,
      file: path.relative(REPO, kept),
      ...summarizeProfile(profile),
    });
  }
  const out = path.join(resultsDir, `profile-${serverKind}-${db}-${stamp}.json`);
  writeFileSync(
    out,
    `${JSON.stringify({ serverKind, db, turns, level, rounds, statements, summaries }, null, 2)}\n`,
  );
  for (const summary of summaries) printSummary(summary);
  if (statements) {
    console.log(
      `\nStatements per sequential turn: ${statements.perTurn} (${statements.total} over ${turns} turns), by kind:`,
    );
    for (const row of statements.byKind) {
      console.log(`  ${row.perTurn.toFixed(2).padStart(6)}  ${row.statement}`);
    }
  }
  console.log(`\nsummary: ${path.relative(REPO, out)}`);
}

/**
 * Turns on `log_statement = all` for the bench database only (new connections) and returns the
 * cluster's log file (the postmaster's stderr), or undefined when it cannot be read.
 */
async function enableStatementLog(adminUrl: string, name: string): Promise<string | undefined> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`alter database ${name} set log_statement = 'all'`);
    const [row] = await admin<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const stat = readFileSync(`/proc/${row?.pid}/stat`, "utf8");
    const postmaster = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
    const file = readlinkSync(`/proc/${postmaster}/fd/2`);
    return file.startsWith("/") && existsSync(file) ? file : undefined;
  } catch (error) {
    log(`statement counting unavailable: ${String(error)}`);
    return undefined;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

async function countLoggedStatements(
  adminUrl: string,
  name: string,
  file: string,
  from: number,
  turns: number,
) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  let pids = new Set<string>();
  try {
    const rows = await admin<{ pid: number }[]>`
      select pid from pg_stat_activity where datname = ${name}`;
    pids = new Set(rows.map((row) => String(row.pid)));
  } finally {
    await admin.end({ timeout: 5 });
  }
  const handle = openSync(file, "r");
  const length = statSync(file).size - from;
  const buffer = Buffer.alloc(Math.max(0, length));
  readSync(handle, buffer, 0, buffer.length, from);
  closeSync(handle);
  const kinds = new Map<string, number>();
  let total = 0;
  for (const line of buffer.toString("utf8").split("\n")) {
    const match = /\[(\d+)\].*LOG: {2}(?:statement|execute [^:]*): (.*)$/.exec(line);
    if (!match?.[1] || !match[2] || !pids.has(match[1])) continue;
    total++;
    const kind = match[2].replace(/\s+/g, " ").replace(/"/g, "").slice(0, 110);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return {
    total,
    perTurn: round(total / turns, 1),
    byKind: [...kinds]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 40)
      .map(([statement, count]) => ({ statement, perTurn: round(count / turns, 2) })),
  };
}

/** `--analyze=FILE.cpuprofile`: summarize a saved profile again (with `--server=` as recorded). */
function analyzeSaved(file: string): void {
  const summary = summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile);
  printSummary({ window: path.basename(file), cpuPerTurnMs: Number.NaN, file, ...summary });
}

try {
  const saved = flags.get("analyze");
  if (saved) analyzeSaved(saved);
  else await main();
} finally {
  closeIdleSockets();
  killAllNow();
}
process.exit(0);
