// Memory over many turns: plain turns (a few at a time, each lane in its own workstream) on a
// server started for this run, with the server's RSS sampled along the way, and through its
// inspector the V8 heap and PGlite's WebAssembly heap. Reports RSS after all turns and its growth
// over the second half (turn N/2 → N): the server's memory should reach a plateau.
import { performance } from "node:perf_hooks";
import { type Inspector, type MemoryReading, readMemory } from "../lib/inspector";
import { cpuMs, type MappingSummary, residentMappings, rssKb } from "../lib/procfs";
import { round } from "../lib/stats";
import { runTurn, type TurnTarget } from "../lib/turns";

export type SoakSample = { turn: number; rssMb: number } & Partial<Omit<MemoryReading, "rssMb">>;

export type SoakResult = {
  turns: number;
  errors: number;
  firstError?: string;
  parallel: number;
  wallSec: number;
  /** The server's CPU per turn over the run (GC included: heap flags trade memory for CPU). */
  cpuPerTurnMs: number;
  samples: SoakSample[];
  rssStartMb: number;
  rssHalfMb: number;
  rssEndMb: number;
  /** RSS growth from turn N/2 to turn N. */
  growthSecondHalfMb: number;
  wasmHalfMb?: number | null;
  wasmEndMb?: number | null;
  /** RSS after the server sat idle for `restSec` (V8 shrinks an idle heap). */
  rssRestMb?: number;
  restSec?: number;
  /** Where the resident memory is at the end (smaps). */
  mappings?: MappingSummary[];
};

export async function runSoak(input: {
  target: TurnTarget;
  texts: readonly string[];
  turns: number;
  parallel: number;
  follower: boolean;
  inspector?: Inspector;
  /** Idle time after the run before the "at rest" reading. */
  restMs: number;
  log: (line: string) => void;
  deadline: number;
}): Promise<SoakResult> {
  const { target, texts, turns, inspector, log } = input;
  const pid = target.server.pid;
  const lanes = Math.max(1, Math.min(input.parallel, target.users.length));
  const every = Math.max(1, Math.round(turns / 20));
  const half = Math.floor(turns / 2);
  const samples: SoakSample[] = [];
  const sample = async (turn: number) => {
    const rssMb = round(rssKb(pid) / 1024, 1);
    let reading: Partial<MemoryReading> = {};
    try {
      if (inspector) reading = await readMemory(inspector);
    } catch (error) {
      log(`  memory reading failed: ${String(error).slice(0, 200)}`);
    }
    samples.push({ ...reading, turn, rssMb });
  };
  await sample(0);
  let next = 0;
  let done = 0;
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const cpu0 = cpuMs(pid);
  const lane = async (userIndex: number) => {
    for (;;) {
      const i = next++;
      if (i >= turns || Date.now() > input.deadline) return;
      const timing = await runTurn(target, userIndex, texts[i % texts.length] ?? "", 60_000, {
        follower: input.follower,
      });
      if (timing.error) {
        errors++;
        firstError ??= timing.error;
      }
      done++;
      if (done === half || done % every === 0 || done === turns) {
        await sample(done);
        if (done % (every * 5) === 0 || done === half) {
          const last = samples.at(-1);
          log(
            `  ${done}/${turns} turns: RSS ${last?.rssMb} MB` +
              (last?.wasmHeapMb ? `, PGlite heap ${last.wasmHeapMb} MB` : "") +
              (last?.heapUsedMb ? `, V8 heap used ${last.heapUsedMb} MB` : ""),
          );
        }
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, (_, u) => lane(u)));
  const wallSec = (performance.now() - started) / 1000;
  const cpuPerTurnMs = round((cpuMs(pid) - cpu0) / Math.max(1, done), 1);
  // A quiet second: what the server holds once the work is done.
  await new Promise((r) => setTimeout(r, 1_000));
  if (samples.at(-1)?.turn !== done) await sample(done);
  const at = (turn: number) =>
    samples.reduce((best, s) => (Math.abs(s.turn - turn) < Math.abs(best.turn - turn) ? s : best));
  const start = samples[0];
  const middle = at(half);
  const end = samples.at(-1);
  const mappings = residentMappings(pid);
  await new Promise((r) => setTimeout(r, input.restMs));
  const rssRestMb = round(rssKb(pid) / 1024, 1);
  return {
    turns: done,
    errors,
    ...(firstError ? { firstError } : {}),
    parallel: lanes,
    wallSec: round(wallSec, 1),
    cpuPerTurnMs,
    samples,
    rssStartMb: start?.rssMb ?? Number.NaN,
    rssHalfMb: middle.rssMb,
    rssEndMb: end?.rssMb ?? Number.NaN,
    growthSecondHalfMb: round((end?.rssMb ?? Number.NaN) - middle.rssMb, 1),
    ...(middle.wasmHeapMb !== undefined ? { wasmHalfMb: middle.wasmHeapMb } : {}),
    ...(end?.wasmHeapMb !== undefined ? { wasmEndMb: end.wasmHeapMb } : {}),
    rssRestMb,
    restSec: input.restMs / 1000,
    mappings,
  };
}
