// 3. Simultaneous turns on one server process: rounds of `level` turns started at the same
// moment (one user/workstream each), until at least `turnsPerLevel` turns were sampled.
// First-text latency, gaps between text chunks at the client (each turn's largest gap, and all
// gaps), the wall time of a round (all `level` turns done), and the server's peak RSS.
import { performance } from "node:perf_hooks";
import type { TurnTiming } from "../lib/http";
import { cpuMs, RssSampler } from "../lib/procfs";
import { round, type Summary, summarize } from "../lib/stats";
import { chunkGaps, largestGaps, runTurn, type TurnTarget } from "../lib/turns";

export type LevelResult = {
  level: number;
  rounds: number;
  turns: number;
  errors: number;
  retries409: number;
  firstError?: string;
  firstTextMs: Summary;
  /** Gaps between consecutive text-delta events of a turn, at the client. */
  chunkGapMs: Summary;
  /** Each turn's largest gap between text-delta events. */
  largestGapMs: Summary;
  /** From a round's start until its last turn was done. */
  roundWallMs: Summary;
  doneMs: Summary;
  peakRssMb: number;
  cpuPerTurnMs: number;
  wallSec: number;
};

export async function runConcurrency(input: {
  target: TurnTarget;
  levels: readonly number[];
  turnsPerLevel: number;
  texts: readonly string[];
  log: (line: string) => void;
  deadline: number;
}): Promise<LevelResult[]> {
  const { target, texts, log } = input;
  const results: LevelResult[] = [];
  let textIndex = 0;
  for (const level of input.levels) {
    if (level > target.users.length) {
      log(`  level ${level}: only ${target.users.length} users, skipped`);
      continue;
    }
    if (Date.now() > input.deadline) {
      log(`  level ${level}: out of time, skipped`);
      continue;
    }
    const rounds = Math.max(1, Math.ceil(input.turnsPerLevel / level));
    const sampler = new RssSampler(target.server.pid).start(50);
    const cpu0 = cpuMs(target.server.pid);
    const started = performance.now();
    const timings: TurnTiming[] = [];
    let errors = 0;
    let retries = 0;
    let firstError: string | undefined;
    let roundsRun = 0;
    const roundWalls: number[] = [];
    for (let round = 0; round < rounds; round++) {
      if (Date.now() > input.deadline) break;
      const roundStart = performance.now();
      const batch = await Promise.all(
        Array.from({ length: level }, (_, u) =>
          runTurn(target, u, texts[textIndex++ % texts.length] ?? "", 90_000),
        ),
      );
      roundsRun++;
      roundWalls.push(performance.now() - roundStart);
      for (const timing of batch) {
        retries += timing.retries;
        if (timing.error) {
          errors++;
          firstError ??= timing.error;
        } else timings.push(timing);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    const wallSec = (performance.now() - started) / 1000;
    const cpu = cpuMs(target.server.pid) - cpu0;
    const rss = sampler.stop();
    const result: LevelResult = {
      level,
      rounds: roundsRun,
      turns: timings.length,
      errors,
      retries409: retries,
      ...(firstError ? { firstError } : {}),
      firstTextMs: summarize(timings.map((t) => t.firstTextMs)),
      chunkGapMs: summarize(chunkGaps(timings)),
      largestGapMs: summarize(largestGaps(timings)),
      roundWallMs: summarize(roundWalls),
      doneMs: summarize(timings.map((t) => t.doneMs)),
      peakRssMb: rss.peakMb,
      cpuPerTurnMs: round(cpu / Math.max(1, timings.length + errors)),
      wallSec: round(wallSec, 1),
    };
    log(
      `  ${level} simultaneous × ${roundsRun}: first text p50 ${result.firstTextMs.p50} / p99 ${result.firstTextMs.p99} ms, ` +
        `largest gap p99 ${result.largestGapMs.p99} ms, wall ${result.roundWallMs.p50} ms, peak RSS ${result.peakRssMb} MB` +
        (errors ? `, ${errors} errors (${firstError})` : ""),
    );
    results.push(result);
  }
  return results;
}
