// `npm run bench`: the Workstreams benchmark. Serves the production build with `next start`
// (PGlite and Postgres) beside a bare AI SDK baseline, and measures, per database against the
// baseline in the same run: first text and server CPU per plain turn, SQL statements per turn,
// simultaneous turns, memory over many turns, history paging and the chat page's weight.
// Prints each figure beside the bare baseline's and its ratio to it, with the goals that still
// stand. A full run writes bench/results/latest.md and latest.json (both committed); a --quick or
// --only run writes quick.md and quick.json (ignored), so a partial run never replaces the full one. Only talks to 127.0.0.1; bounded by --deadline; kills its servers on exit.
//
// Turn kinds: the *plain turn* (a 7-word answer at model delay 0, one follower) and the *full
// turn* (section "full"): the same texts in other workstreams whose plan, state and memory block
// were seeded through the agent's tools, timed and counted the same way beside the plain turn.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { type AppBuild, prepareApp, REPO } from "./lib/app-build";
import { armDeadline, installExitHandlers, killAllNow, onExit } from "./lib/children";
import { type DbKind, parseOptions, SECTIONS, type Section } from "./lib/cli";
import {
  backendPids,
  createDatabase,
  databaseStats,
  dropDatabase,
  dropStaleDatabases,
  insertHistoryPglite,
  insertHistoryPostgres,
  overSocket,
  setStatementLog,
  TABLE_SIZES_SQL,
  tableSizes,
} from "./lib/db";
import { Client, closeIdleSockets } from "./lib/http";
import { connectInspector, type Inspector, queryEmbedded } from "./lib/inspector";
import { measureModelTtft, zeroDelayMessages } from "./lib/model-ttft";
import { loadAverage } from "./lib/procfs";
import {
  type DbTable,
  type EventLogProfile,
  evaluateGoals,
  formatReport,
  type Results,
} from "./lib/report";
import { type Server, startApp, startBaseline } from "./lib/servers";
import { round, summarize } from "./lib/stats";
import { type BenchUser, signUpUser, signUpUsers } from "./lib/users";
import { runApprovals } from "./scenarios/approvals";
import { runAttachments } from "./scenarios/attachments";
import {
  chatPageScripts,
  chatRouteWeight,
  ratio,
  timeToFirstCharacter,
  timeToUsable,
} from "./scenarios/client";
import { runConcurrency } from "./scenarios/concurrency";
import { sampleComposeMs, seedFullContext } from "./scenarios/full-turn";
import { runHistory } from "./scenarios/history";
import { runInspector } from "./scenarios/inspector";
import { runJobs } from "./scenarios/jobs";
import { runOverhead } from "./scenarios/overhead";
import { runRetrieval } from "./scenarios/retrieval";
import { runSoak } from "./scenarios/soak";
import { runStatements, type StatementSource } from "./scenarios/statements";

const options = parseOptions(process.argv.slice(2));
// Only a run of every section on both databases at full counts stands for the app as it is.
const fullRun =
  !options.quick && options.sections.size === SECTIONS.length && options.dbs.length === 2;
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
    overheadWords: options.overheadWords,
    followers: options.followers,
    ...(options.pgliteSettings ? { pgliteSettings: options.pgliteSettings } : {}),
    ...(options.pgSocket ? { pgSocket: true } : {}),
    ...(options.vacuumIntervalMs !== undefined
      ? { vacuumIntervalMs: options.vacuumIntervalMs }
      : {}),
    options: { ...options, sections: [...options.sections] },
  },
  overhead: {},
  concurrency: {},
  statements: {},
  soak: {},
  history: {},
  jobs: {},
  approvals: {},
  attachments: {},
  full: {},
  retrieval: {},
  client: { status: "skipped" },
  goals: [],
  notes: [],
};

const wants = (section: Section) => options.sections.has(section);
const wantsTurns =
  wants("overhead") || wants("concurrency") || wants("statements") || wants("soak");
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

  // Messages whose seeded first-token delay is 0 (see bench/lib/model-ttft.ts), and the model's own
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
  const userCount = Math.max(
    wants("overhead") || wants("statements") ? options.overheadUsers : 0,
    wants("soak") ? options.soakParallel : 0,
    maxLevel,
  );

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

  // Retrieval runs in a process of its own after the servers are gone, on a quiet machine.
  if (wants("retrieval")) {
    for (const db of options.dbs) {
      if (Date.now() > softDeadline) {
        results.notes.push(`${db}: retrieval skipped, out of time`);
        continue;
      }
      try {
        results.retrieval[db] = await runRetrieval({
          db,
          quick: options.quick,
          pgUrl: options.pgUrl,
          workDir,
          log,
        });
      } catch (error) {
        results.notes.push(`${db}: retrieval failed: ${String(error)}`);
      }
    }
  }

  if (wants("inspector") && Date.now() < softDeadline) {
    try {
      results.inspector = await runInspector({ quick: options.quick, workDir, log });
    } catch (error) {
      results.notes.push(`inspector failed: ${String(error)}`);
    }
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
  // The bench's own statements stay on TCP; only the app servers may use the socket.
  const appDatabaseUrl =
    databaseUrl && options.pgSocket ? await overSocket(databaseUrl) : databaseUrl;
  const appEnv: Record<string, string> = {};
  if (db === "pglite" && options.pgliteSettings) appEnv.PGLITE_SETTINGS = options.pgliteSettings;
  if (options.vacuumIntervalMs !== undefined) {
    appEnv.WORKSTREAMS_VACUUM_INTERVAL_MS = String(options.vacuumIntervalMs);
  }
  const launch = (port?: number, extra: { trace?: boolean; inspect?: boolean } = {}) =>
    startApp({
      kind: db,
      appDir: build.dir,
      pgliteDataDir,
      databaseUrl: appDatabaseUrl,
      chunkDelayMs: options.chunkDelayMs,
      verbose: options.verbose,
      port,
      trace: extra.trace,
      env: appEnv,
      nodeArgs: [...options.nodeOptions, ...(extra.inspect ? ["--inspect=127.0.0.1:0"] : [])],
    });
  // A fresh server process on the same port (the users' clients keep their address).
  const relaunch = async (extra: { trace?: boolean; inspect?: boolean }, why: string) => {
    const port = server.port;
    await server.stop();
    server = await launch(port, extra);
    target.server = server;
    log(`${db}: restarted for ${why}; serving pid ${server.pid}`);
  };
  log(
    `${db}: starting next start (${db === "postgres" ? dbName : path.relative(REPO, pgliteDataDir)})`,
  );
  let server: Server = await launch();
  const target: { server: Server; users: BenchUser[] } = { server, users: [] };
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
    target.users = users;
    const follower = options.followers > 0;
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
        follower,
        log,
      });
      const r = results.overhead[db];
      if (r)
        log(
          `${db}: overhead p50 ${r.overheadMs.p50} ms, p99 ${r.overheadMs.p99} ms, CPU/turn ${r.cpuPerTurnMs} ms`,
        );
    }
    let fullUsers: BenchUser[] = [];
    if (wants("full") && Date.now() < softDeadline) {
      fullUsers = await signUpUsers(server.url, options.overheadUsers, `${db}-full-`, 4);
      const fullTarget = { server, users: fullUsers };
      log(`${db}: seeding the full turn's context in ${fullUsers.length} workstreams`);
      const seeded = await seedFullContext(fullTarget);
      log(`${db}: ${inputs.overheadTexts.length} sequential full turns`);
      const overhead = await runOverhead({
        target: fullTarget,
        texts: inputs.overheadTexts,
        modelTtft: inputs.overheadTtft,
        warmupTexts: inputs.warmupTexts,
        ...(db === "postgres" ? { dbName } : {}),
        quietMs: 2_000,
        follower,
        log,
      });
      const sampled = await sampleComposeMs(fullTarget, inputs.overheadTexts, 30);
      results.full = {
        ...results.full,
        [db]: {
          seeded,
          overhead,
          composeMs: sampled.composeMs,
          ...(sampled.sections ? { sections: sampled.sections.context.sections } : {}),
        },
      };
      log(
        `${db}: full turn first text p50 ${overhead.firstTextMs.p50} ms; builder p50 ${sampled.composeMs.p50} ms`,
      );
    }
    if (wants("jobs") && Date.now() < softDeadline) {
      log(`${db}: post-turn jobs over ${options.jobSamples} new group workstreams`);
      results.jobs[db] = await runJobs({
        baseUrl: server.url,
        user: await signUpUser(server.url, `${db}-jobs`),
        samples: options.jobSamples,
        text: (i) => `Plan the harbor festival budget ${i} with the lighthouse volunteers`,
        log,
      });
    }
    if (wants("approvals") && Date.now() < softDeadline) {
      log(`${db}: ${options.approvalSamples} turns with one approved tool call`);
      results.approvals[db] = await runApprovals({
        user: await signUpUser(server.url, `${db}-approvals`),
        samples: options.approvalSamples,
        log,
      });
    }
    if (wants("attachments") && Date.now() < softDeadline) {
      log(`${db}: attachments (20 MB uploads, re-signing 20 files before a turn)`);
      results.attachments = {
        ...results.attachments,
        [db]: await runAttachments({
          user: await signUpUser(server.url, `${db}-files`),
          pid: server.pid,
          uploads: options.quick ? 2 : 3,
          turns: options.quick ? 10 : 30,
          log,
        }),
      };
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

    if (wants("statements") && Date.now() < softDeadline) {
      // Counting has a cost (a line per statement): on a server of its own.
      const logFile =
        db === "postgres" ? await setStatementLog(options.pgUrl, dbName, true) : undefined;
      await relaunch({ trace: true }, "counting statements");
      let source: StatementSource = { kind: "trace", trace: server.sql };
      if (db === "postgres" && logFile) {
        source = {
          kind: "log",
          file: logFile,
          pids: () => backendPids(options.pgUrl, dbName),
          trace: server.sql,
        };
      } else if (db === "postgres") {
        results.notes.push(
          "postgres: the cluster's log could not be read, so statements were counted with the app's trace (postgres-js debug) instead of log_statement = all.",
        );
      }
      try {
        results.statements[db] = await runStatements({
          target: { server, users: users.slice(0, options.overheadUsers) },
          source,
          texts: inputs.overheadTexts,
          turns: options.statementTurns,
          follower,
        });
        const full = results.full?.[db];
        if (full && fullUsers.length) {
          full.statements = await runStatements({
            target: { server, users: fullUsers },
            source,
            texts: inputs.overheadTexts,
            turns: options.statementTurns,
            follower,
          });
          log(`${db}: ${full.statements.perTurn} statements per full turn`);
        }
        const r = results.statements[db];
        log(
          `${db}: ${r?.perTurn} statements per turn (${r?.source})` +
            (r?.perTurnWithoutFollower === undefined
              ? ""
              : `, ${r.perTurnWithoutFollower} without the follower`),
        );
      } finally {
        if (db === "postgres") await setStatementLog(options.pgUrl, dbName, false);
      }
    }

    if (wants("soak") && Date.now() < softDeadline) {
      await relaunch({ inspect: true }, "the memory run");
      let inspector: Inspector | undefined;
      try {
        inspector = await connectInspector(server.output);
      } catch (error) {
        results.notes.push(`${db}: no inspector for the memory run (${String(error)}): RSS only.`);
      }
      try {
        log(`${db}: ${options.soakTurns} plain turns, ${options.soakParallel} at a time (memory)`);
        const soak = await runSoak({
          target: { server, users: users.slice(0, Math.max(1, options.soakParallel)) },
          texts: inputs.overheadTexts,
          turns: options.soakTurns,
          parallel: options.soakParallel,
          follower,
          inspector,
          restMs: options.quick ? 3_000 : 15_000,
          log,
          deadline: softDeadline,
        });
        const eventLog = await eventLogProfile(db, inspector, databaseUrl);
        const tables = await databaseTables(db, inspector, databaseUrl);
        results.soak[db] = {
          ...soak,
          ...(eventLog ? { eventLog } : {}),
          ...(tables.length ? { tables } : {}),
        };
        log(
          `${db}: RSS ${soak.rssStartMb} → ${soak.rssHalfMb} → ${soak.rssEndMb} MiB; growth over the second half ${soak.growthSecondHalfMb} MiB`,
        );
      } finally {
        inspector?.close();
      }
    }

    if ((wants("history") || wants("client")) && (wants("statements") || wants("soak"))) {
      await relaunch({}, "history and client");
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
      let firstCharacter: Awaited<ReturnType<typeof timeToFirstCharacter>> | undefined;
      if (first && Date.now() < softDeadline) {
        log(`${db}: Chromium, POST to the answer's first character on screen`);
        // Messages the model answers without a first-token delay, as in the plain turn.
        const texts = await zeroDelayMessages(
          options.clientRepeats + 1,
          (i) =>
            `Browser turn ${i}: name the next step for team ${i}. [words:${options.overheadWords}]`,
        );
        firstCharacter = await timeToFirstCharacter({
          baseUrl: server.url,
          client: first.user.client,
          workstreamId: first.user.workstreamId,
          texts,
          selector: options.composerSelector,
        });
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
        ...(firstCharacter ? { firstCharacter } : {}),
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

const EVENT_LOG_SQL = `
  select count(*)::int as rows, count(distinct turn_id)::int as turns,
         coalesce(sum(pg_column_size(e.*)), 0)::bigint as bytes,
         pg_total_relation_size('turn_events')::bigint as "tableBytes",
         (count(*) filter (where chunk->>'type' = 'text-delta'))::int as "textDeltaRows",
         coalesce(sum(pg_column_size(e.*)) filter (where chunk->>'type' = 'text-delta'), 0)::bigint
           as "textDeltaBytes",
         (count(distinct turn_id) filter (where chunk->>'type' = 'text-delta'))::int as "textTurns",
         (select count(*) from (select turn_id from turn_events where chunk->>'type' = 'text-delta'
            group by turn_id having count(*) > 3) long)::int as "longTurns",
         (select coalesce(sum(n), 0) from (select count(*) as n from turn_events
            where chunk->>'type' = 'text-delta' group by turn_id having count(*) > 3) long)::int
           as "longTextDeltaRows"
  from turn_events e`;
const EVENT_TYPES_SQL = `
  select coalesce(chunk->>'type', '?') as type, count(*)::int as rows
  from turn_events group by 1 order by 2 desc`;

type Row = Record<string, string | number>;

async function queryDb(
  db: DbKind,
  inspector: Inspector | undefined,
  databaseUrl: string | undefined,
  sql: string,
): Promise<Row[]> {
  if (db === "pglite") return inspector ? queryEmbedded<Row>(inspector, sql) : [];
  if (!databaseUrl) return [];
  const { default: postgres } = await import("postgres");
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    return [...(await client.unsafe<Row[]>(sql))];
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** Rows and bytes of the event log, and what folding text deltas would remove. */
async function eventLogProfile(
  db: DbKind,
  inspector: Inspector | undefined,
  databaseUrl: string | undefined,
): Promise<EventLogProfile | undefined> {
  try {
    const [row] = await queryDb(db, inspector, databaseUrl, EVENT_LOG_SQL);
    if (!row) return undefined;
    const byType = await queryDb(db, inspector, databaseUrl, EVENT_TYPES_SQL);
    const n = (key: string) => Number(row[key] ?? 0);
    return {
      rows: n("rows"),
      turns: n("turns"),
      bytes: n("bytes"),
      tableBytes: n("tableBytes"),
      textDeltaRows: n("textDeltaRows"),
      textDeltaBytes: n("textDeltaBytes"),
      textTurns: n("textTurns"),
      longTurns: n("longTurns"),
      longTextDeltaRows: n("longTextDeltaRows"),
      byType: byType.map((t) => ({ type: String(t.type), rows: Number(t.rows) })),
    };
  } catch (error) {
    results.notes.push(
      `${db}: the event log could not be measured (${String(error).slice(0, 200)})`,
    );
    return undefined;
  }
}

async function databaseTables(
  db: DbKind,
  inspector: Inspector | undefined,
  databaseUrl: string | undefined,
): Promise<DbTable[]> {
  try {
    if (db === "postgres" && databaseUrl) return await tableSizes(databaseUrl);
    const rows = await queryDb(db, inspector, databaseUrl, TABLE_SIZES_SQL);
    return rows.map((r) => ({
      table: String(r.table),
      rows: Number(r.rows),
      bytes: Number(r.bytes),
    }));
  } catch (error) {
    results.notes.push(`${db}: table sizes could not be read (${String(error).slice(0, 200)})`);
    return [];
  }
}

function writeResults(): string {
  results.meta.loadEnd = loadAverage();
  results.meta.durationSec = round((performance.now() - started) / 1000, 0);
  if (wants("client") && results.client.status === "skipped" && !clientDb) {
    results.client = { status: "skipped", note: "no database variant selected" };
  }
  results.notes.push(
    "Turn kinds: the plain turn, and the full turn (section 2b): the same turn in a workstream with an active plan, every state list filled and a memory block, seeded through the agent's own tools. and 1,000 organization memories its member sees.",
    "First text = POST sent → first text-delta event at the client. 'Over baseline' = the database's first text minus the bare baseline's in this run (same messages, same model): the first-text goal applies to it. '− model TTFT' subtracts the model's own time to first token measured in-process instead.",
    "Warm-up: each server first runs plain turns that are not measured (80 by default, --warmup): V8 compiles the hot paths, and each of the app's 10 pooled Postgres connections runs each hot statement past the five runs Postgres plans afresh before it keeps a generic plan (the opening's plan costs 2.5–3 ms of backend CPU; a connection lives 30–60 minutes).",
    "The follower: each app turn has a second connection of the same user following the workstream (GET …/events?after=N) from the moment the POST's headers arrive; its work (session check, log reads) is in the app's CPU and statement counts. The baseline has no follower (nothing to follow).",
    "CPU per turn = utime+stime of the serving process (all its threads, PGlite's WebAssembly included) from the first turn until the server is quiet again after the last (its post-turn jobs, which wait while turns run, included) ÷ turns, idle background work included; on Postgres plus the CPU of the bench database's backends. 'Over baseline' subtracts the bare baseline's CPU per turn and '× baseline' divides by it.",
    "Statements: counted on a server restarted for the count, turn by turn, from sending the POST until the POST's and the follower's streams ended (the terminal event goes out only after the closing statement committed): that is the per-turn figure the goal reads. Before each counted turn the server is left to go quiet (no statement for 300 ms, at most 15 s), so the previous turn's background jobs are done and none of a neighbour's work falls into the window. The turn's post-turn background work (the outbox hand-over 100 ms after the close, WORKSTREAMS_JOBS_WAKE_DELAY_MS; the runner's claims; the jobs' own reads, step writes and completions) is counted from the close until the server is quiet again and shown per turn in its own column ('post-turn background', with how long after the close the server went quiet), so nothing is hidden; a debounced job (the memory digest, 15 minutes) runs outside any window, and its hand-over statements are in that column. The counted turns are one member's, after one uncounted turn of theirs: an organization's first turn after a server starts (then at most once per 15 minutes) opens the digest's wait, and its hand-over is a transaction of three statements (the locking mark, the insert under the debounce lock, the debounce) where a later turn's is one. An idle poll (the runner every 1 s, the outbox every 2 s, one statement each) falling inside a window is counted too. PGlite: the app's trace (WORKSTREAMS_SQL_TRACE=1, drizzle's logger; statements sent through PGlite's own API outside drizzle would not be seen). Postgres: log_statement = all on the bench database, read from the cluster's log and filtered to its backends; the app's trace (postgres-js debug) is shown beside it and tells when the server is quiet.",
    "Simultaneous turns: each round starts `level` plain turns at once (one user and workstream each, no follower); a gap is the time between two consecutive chunks (SSE events of any type) of a turn at the client, 'largest gap' is each turn's largest, and its p99 over turns is what the goal reads; round wall = start of the round → its last turn done. With the model's delay at 0 a gap is the server's own latency (its batching, its queue).",
    "Memory: a server restarted with --inspect for the run (the V8 heap and PGlite's WebAssembly heap are read through the inspector); RSS from /proc. Growth N/2→N is the RSS at the last turn minus the RSS at the middle one.",
    "Client and servers share this machine's CPUs: figures under concurrency include the load generator and Postgres competing for the same cores.",
    "Each simulated user sends its own x-forwarded-for address and the app servers trust it (WORKSTREAMS_TRUST_PROXY=1, as behind a reverse proxy), so better-auth's per-address sign-up limit (3 per 10 s) applies per user rather than to the whole benchmark.",
  );
  results.goals = evaluateGoals(results);
  const dir = path.join(REPO, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, fullRun ? "latest.json" : "quick.json");
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
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
// A full run's report and its JSON are what gets committed, as latest.md and latest.json (git
// keeps the earlier ones); a quick or partial run's go to quick.md and quick.json (ignored).
const body = `# Benchmark: ${options.name}\n\n\`\`\`text\n${report}\n\`\`\`\n`;
const markdown = path.join(REPO, "bench", "results", fullRun ? "latest.md" : "quick.md");
writeFileSync(markdown, body);
const written = [path.relative(REPO, markdown)];
console.log(`results: ${path.relative(REPO, file)}, ${written.join(", ")}`);
process.exit(exitCode);
