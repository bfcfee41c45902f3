// 1 + 2. Turn overhead and server CPU per turn: sequential turns, each timed from the POST to
// the first text-delta at the client, minus the model's own time to first token (measured
// in-process for the same message). CPU is the serving process's utime+stime over the run.
import { performance } from "node:perf_hooks";
import type { DatabaseStats } from "../lib/db";
import type { TurnTiming } from "../lib/http";
import { cpuMs, postgresBackendCpuMs, rssKb } from "../lib/procfs";
import { round, type Summary, summarize } from "../lib/stats";
import { runTurn, type TurnTarget } from "../lib/turns";

export type OverheadResult = {
  turns: number;
  errors: number;
  retries409: number;
  firstError?: string;
  /** POST → first text-delta at the client. */
  firstTextMs: Summary;
  /** The model's own TTFT for the same messages (in-process). */
  modelTtftMs: Summary;
  /** firstText − model TTFT, per turn. */
  overheadMs: Summary;
  headersMs: Summary;
  firstEventMs: Summary;
  /** p50 arrival of the first event of each type (acknowledged status, start, text-start…). */
  firstOfTypeP50Ms: Record<string, number>;
  doneMs: Summary;
  textCharsPerTurn: number;
  cpuPerTurnMs: number;
  idleCpuMsPerSec: number;
  cpuPerTurnMinusIdleMs: number;
  /** Postgres backends of this server's database (not part of the server process). */
  dbCpuPerTurnMs?: number;
  /** Postgres transactions (each autocommit statement counts) and rows written, per turn. */
  dbPerTurn?: { xacts: number; inserted: number; updated: number; deleted: number };
  rssMbAfter: number;
  wallSec: number;
  /** How long after the last turn the server (and its backends) went quiet. */
  quietAfterMs?: number;
  /** Turns that had a follower, and its first text (ms after the POST was sent). */
  followers?: { turns: number; errors: number; firstTextMs: Summary };
};

function firstOfType(timings: readonly TurnTiming[]): Record<string, number> {
  const types = new Set(timings.flatMap((t) => Object.keys(t.firstOf)));
  const out: Record<string, number> = {};
  for (const type of types) {
    const values = timings.flatMap((t) => (t.firstOf[type] === undefined ? [] : [t.firstOf[type]]));
    out[type] = summarize(values).p50;
  }
  return Object.fromEntries(Object.entries(out).sort((a, b) => a[1] - b[1]));
}

export async function runOverhead(input: {
  target: TurnTarget;
  texts: readonly string[];
  modelTtft: readonly number[];
  warmupTexts: readonly string[];
  dbName?: string;
  /** Reads the database's pg_stat_database counters (Postgres only). */
  dbStats?: () => Promise<DatabaseStats>;
  /** Quiet period before and after the run: idle CPU, and time for Postgres stats to land. */
  quietMs: number;
  /** One follower per turn (the app only). */
  follower?: boolean;
  log: (line: string) => void;
}): Promise<OverheadResult> {
  const { target, texts, modelTtft, log } = input;
  const pid = target.server.pid;
  const turnOptions = { follower: input.follower ?? false };
  for (let i = 0; i < input.warmupTexts.length; i++) {
    await runTurn(target, i, input.warmupTexts[i] ?? "", 60_000, turnOptions);
  }
  // Idle CPU (lease loop, timers) over a short quiet period, to tell apart from per-turn work.
  await new Promise((r) => setTimeout(r, 300));
  const idle0 = cpuMs(pid);
  const idleStart = performance.now();
  await new Promise((r) => setTimeout(r, input.quietMs));
  const idleCpuMsPerSec = (cpuMs(pid) - idle0) / ((performance.now() - idleStart) / 1000);
  const stats0 = await input.dbStats?.();

  const cpu0 = cpuMs(pid);
  const db0 = input.dbName ? postgresBackendCpuMs(input.dbName) : 0;
  const started = performance.now();
  const timings: TurnTiming[] = [];
  const overheads: number[] = [];
  let errors = 0;
  let retries = 0;
  let firstError: string | undefined;
  const followerFirstText: number[] = [];
  let followerTurns = 0;
  let followerErrors = 0;
  for (let i = 0; i < texts.length; i++) {
    const timing = await runTurn(target, i, texts[i] ?? "", 60_000, turnOptions);
    retries += timing.retries;
    if (timing.follower) {
      followerTurns++;
      // The follower's clock starts when the POST's headers arrived.
      if (timing.follower.error) followerErrors++;
      else followerFirstText.push(timing.headersMs + timing.follower.firstTextMs);
    }
    if (timing.error) {
      errors++;
      firstError ??= timing.error;
      continue;
    }
    timings.push(timing);
    overheads.push(timing.firstTextMs - (modelTtft[i] ?? 0));
    if ((i + 1) % 50 === 0) log(`  ${i + 1}/${texts.length} turns`);
  }
  const wallSec = (performance.now() - started) / 1000;
  // Work that follows a turn's [DONE] (the post-turn jobs, which wait while turns run) belongs to
  // the turn too: the count goes on until the server is quiet again.
  const quietAfterMs = await untilQuiet(pid, idleCpuMsPerSec, input.dbName);
  const settleSec = (performance.now() - started) / 1000;
  const cpu = cpuMs(pid) - cpu0;
  const dbCpu = input.dbName ? postgresBackendCpuMs(input.dbName) - db0 : undefined;
  const done = Math.max(1, timings.length);
  let dbPerTurn: OverheadResult["dbPerTurn"];
  if (stats0 && input.dbStats) {
    await new Promise((r) => setTimeout(r, input.quietMs));
    const stats1 = await input.dbStats();
    const per = (a: number, b: number) => round((b - a) / done, 1);
    dbPerTurn = {
      xacts: per(stats0.xacts, stats1.xacts),
      inserted: per(stats0.inserted, stats1.inserted),
      updated: per(stats0.updated, stats1.updated),
      deleted: per(stats0.deleted, stats1.deleted),
    };
  }
  const cpuPerTurnMs = cpu / done;
  return {
    turns: timings.length,
    errors,
    retries409: retries,
    ...(firstError ? { firstError } : {}),
    firstTextMs: summarize(timings.map((t) => t.firstTextMs)),
    modelTtftMs: summarize(modelTtft.slice(0, texts.length)),
    overheadMs: summarize(overheads),
    headersMs: summarize(timings.map((t) => t.headersMs)),
    firstEventMs: summarize(timings.map((t) => t.firstEventMs)),
    firstOfTypeP50Ms: firstOfType(timings),
    doneMs: summarize(timings.map((t) => t.doneMs)),
    textCharsPerTurn: round(timings.reduce((sum, t) => sum + t.textChars, 0) / done, 0),
    cpuPerTurnMs: round(cpuPerTurnMs),
    idleCpuMsPerSec: round(idleCpuMsPerSec),
    cpuPerTurnMinusIdleMs: round(cpuPerTurnMs - (idleCpuMsPerSec * settleSec) / done),
    ...(dbCpu === undefined ? {} : { dbCpuPerTurnMs: round(dbCpu / done) }),
    ...(dbPerTurn ? { dbPerTurn } : {}),
    rssMbAfter: round(rssKb(pid) / 1024, 1),
    wallSec: round(wallSec, 1),
    quietAfterMs: Math.round(quietAfterMs),
    ...(followerTurns
      ? {
          followers: {
            turns: followerTurns,
            errors: followerErrors,
            firstTextMs: summarize(followerFirstText),
          },
        }
      : {}),
  };
}

const QUIET_SAMPLE_MS = 250;
const QUIET_LIMIT_MS = 20_000;

/**
 * Waits until a 250 ms sample of the server's CPU (and its Postgres backends') is no more than
 * its idle rate plus 2 ms, at most 20 s; returns how long that took. Always at least one sample.
 */
async function untilQuiet(pid: number, idleMsPerSec: number, dbName?: string): Promise<number> {
  const start = performance.now();
  const allowed = (idleMsPerSec * QUIET_SAMPLE_MS) / 1000 + 2;
  const busy = () => cpuMs(pid) + (dbName ? postgresBackendCpuMs(dbName) : 0);
  for (;;) {
    const before = busy();
    await new Promise((r) => setTimeout(r, QUIET_SAMPLE_MS));
    if (busy() - before <= allowed) break;
    if (performance.now() - start > QUIET_LIMIT_MS) break;
  }
  return performance.now() - start;
}
