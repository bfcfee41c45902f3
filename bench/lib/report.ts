// The results document (written as JSON) and its printed tables, with the goals beside the
// figures.
import type { BundleWeight, FetchedWeight, UsableResult } from "../scenarios/client";
import type { LevelResult } from "../scenarios/concurrency";
import type { HistoryResult } from "../scenarios/history";
import type { OverheadResult } from "../scenarios/overhead";
import { round } from "./stats";

export type Variant = "baseline" | "pglite" | "postgres";

export type Results = {
  meta: Record<string, unknown>;
  overhead: Partial<
    Record<Variant, OverheadResult & { ratioToBaselineP50?: number; ratioToBaselineP99?: number }>
  >;
  concurrency: Partial<Record<Variant, LevelResult[]>>;
  history: Partial<Record<Variant, HistoryResult>>;
  client: {
    status: "ok" | "todo" | "skipped" | "failed";
    note?: string;
    db?: Variant;
    weight?: BundleWeight | null;
    fetched?: FetchedWeight;
    usable?: UsableResult[];
    ratio?: number;
  };
  goals: Goal[];
  notes: string[];
};

export type Goal = {
  goal: string;
  measured: string;
  met: boolean | null;
};

const f = (value: number | undefined, digits = 1) =>
  value === undefined || !Number.isFinite(value) ? "–" : round(value, digits).toFixed(digits);

export function evaluateGoals(results: Results): Goal[] {
  const goals: Goal[] = [];
  const base = results.overhead.baseline;
  for (const db of ["pglite", "postgres"] as const) {
    const run = results.overhead[db];
    if (!run) continue;
    const ratio =
      run.ratioToBaselineP50 ??
      (base ? run.overheadMs.p50 / Math.max(base.overheadMs.p50, 0.01) : Number.NaN);
    goals.push({
      goal: `${db}: turn overhead p50 ≤ 10 ms and ≤ 3× baseline`,
      measured: `${f(run.overheadMs.p50)} ms, ${f(ratio)}× baseline (${f(base?.overheadMs.p50)} ms)`,
      met: run.overheadMs.p50 <= 10 && (!base || ratio <= 3),
    });
    goals.push({
      goal: `${db}: server CPU per turn ≤ 8 ms`,
      measured: `${f(run.cpuPerTurnMs)} ms`,
      met: run.cpuPerTurnMs <= 8,
    });
  }
  const pg100 = results.concurrency.postgres?.find((level) => level.level === 100);
  if (results.concurrency.postgres) {
    goals.push({
      goal: "postgres, 100 simultaneous: first-text p99 ≤ 400 ms, chunk-gap p99 ≤ 150 ms",
      measured: pg100
        ? `${f(pg100.firstTextMs.p99, 0)} ms, ${f(pg100.chunkGapMs.p99, 0)} ms`
        : "not run",
      met: pg100 ? pg100.firstTextMs.p99 <= 400 && pg100.chunkGapMs.p99 <= 150 : null,
    });
  }
  for (const db of ["pglite", "postgres"] as const) {
    const history = results.history[db];
    if (!history) continue;
    const worst = Math.max(history.latest.p99, history.middle.p99, history.oldest.p99);
    goals.push({
      goal: `${db}: history page p99 ≤ 10 ms (${history.messages.toLocaleString("en")} messages)`,
      measured: `${f(worst)} ms (worst of latest/middle/oldest)`,
      met: worst <= 10,
    });
  }
  const client = results.client;
  if (client.status === "ok" && client.fetched) {
    goals.push({
      goal: "chat page JS fetched (to 4 s after load, lazy chunks included) ≤ 250 KB gzip",
      measured: `${f(client.fetched.gzipBytes / 1024)} KB`,
      met: client.fetched.gzipBytes <= 250 * 1024,
    });
  }
  if (client.status === "ok" && client.ratio !== undefined) {
    goals.push({
      goal: "usable page with 10,000 messages within 1.2× of 10",
      measured: `${f(client.ratio, 2)}×`,
      met: client.ratio <= 1.2,
    });
  } else if (client.status !== "ok" && client.status !== "skipped") {
    goals.push({
      goal: "client weight and long histories",
      measured: client.note ?? client.status,
      met: null,
    });
  }
  return goals;
}

function table(headers: string[], rows: string[][], leftAlign = false): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || leftAlign ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function formatReport(results: Results): string {
  const out: string[] = [];
  const meta = results.meta;
  out.push(
    `Workstreams benchmark — ${String(meta.name)} — ${String(meta.startedAt)}\n` +
      `node ${String(meta.node)}, ${String(meta.cpus)} CPUs, load ${String(meta.loadStart)} → ${String(meta.loadEnd)}, ` +
      `build ${String(meta.buildSource)} ${String(meta.buildId)}, chunk delay ${String(meta.chunkDelayMs)} ms`,
  );

  const overhead = Object.entries(results.overhead) as Array<
    [Variant, NonNullable<Results["overhead"][Variant]>]
  >;
  if (overhead.length) {
    out.push(
      `\n1–2. Turn overhead (sequential turns; first text-delta at the client − the model's own TTFT) and server CPU per turn`,
    );
    out.push(
      table(
        [
          "server",
          "turns",
          "first text p50/p99",
          "model TTFT",
          "overhead p50",
          "p99",
          "×base p50",
          "CPU/turn",
          "DB CPU/turn",
          "DB xacts/turn",
          "RSS",
        ],
        overhead.map(([variant, r]) => [
          variant,
          `${r.turns}${r.errors ? ` (${r.errors} err)` : ""}`,
          `${f(r.firstTextMs.p50)} / ${f(r.firstTextMs.p99)} ms`,
          `${f(r.modelTtftMs.p50)} ms`,
          `${f(r.overheadMs.p50)} ms`,
          `${f(r.overheadMs.p99)} ms`,
          r.ratioToBaselineP50 === undefined ? "1.0" : f(r.ratioToBaselineP50),
          `${f(r.cpuPerTurnMs)} ms`,
          r.dbCpuPerTurnMs === undefined ? "–" : `${f(r.dbCpuPerTurnMs)} ms`,
          r.dbPerTurn === undefined
            ? "–"
            : `${f(r.dbPerTurn.xacts)} (${f(r.dbPerTurn.inserted, 0)} ins, ${f(r.dbPerTurn.updated, 0)} upd)`,
          `${f(r.rssMbAfter, 0)} MB`,
        ]),
      ),
    );
  }

  for (const [variant, r] of overhead) {
    const stages = Object.entries(r.firstOfTypeP50Ms ?? {})
      .filter(([type]) => type !== "finish" && type !== "text-end")
      .map(([type, ms]) => `${type} ${f(ms)}`)
      .join(", ");
    out.push(
      `  ${variant}: p50 ms after the POST — headers ${f(r.headersMs.p50)}, ${stages}; [DONE] ${f(r.doneMs.p50)}; idle CPU ${f(r.idleCpuMsPerSec)} ms/s`,
    );
  }

  const levels = Object.entries(results.concurrency) as Array<[Variant, LevelResult[]]>;
  if (levels.length) {
    out.push("\n3. Simultaneous turns on one server process");
    out.push(
      table(
        [
          "server",
          "level",
          "turns",
          "first text p50",
          "p99",
          "chunk gap p50",
          "p99",
          "turn done p50",
          "CPU/turn",
          "peak RSS",
        ],
        levels.flatMap(([variant, list]) =>
          list.map((r) => [
            variant,
            String(r.level),
            `${r.turns}${r.errors ? ` (${r.errors} err)` : ""}`,
            `${f(r.firstTextMs.p50, 0)} ms`,
            `${f(r.firstTextMs.p99, 0)} ms`,
            `${f(r.chunkGapMs.p50, 0)} ms`,
            `${f(r.chunkGapMs.p99, 0)} ms`,
            `${f(r.doneMs.p50, 0)} ms`,
            `${f(r.cpuPerTurnMs)} ms`,
            `${f(r.peakRssMb, 0)} MB`,
          ]),
        ),
      ),
    );
  }

  const history = Object.entries(results.history) as Array<[Variant, HistoryResult]>;
  if (history.length) {
    out.push("\n4. History page (take=6) in one workstream");
    out.push(
      table(
        [
          "server",
          "messages",
          "requests",
          "latest p50/p99",
          "middle p50/p99",
          "oldest p50/p99",
          "insert",
        ],
        history.map(([variant, r]) => [
          variant,
          r.messages.toLocaleString("en"),
          String(r.requests),
          `${f(r.latest.p50, 2)} / ${f(r.latest.p99, 2)} ms`,
          `${f(r.middle.p50, 2)} / ${f(r.middle.p99, 2)} ms`,
          `${f(r.oldest.p50, 2)} / ${f(r.oldest.p99, 2)} ms`,
          `${f(r.insertSec)} s`,
        ]),
      ),
    );
  }

  const client = results.client;
  const showClient = client.status !== "skipped" || client.note;
  if (showClient) out.push("\n5. Client weight and long histories");
  if (!showClient) {
    // not requested
  } else if (client.status === "ok") {
    const fetched = client.fetched;
    if (fetched) {
      out.push(
        `/w/<id> in Chromium: ${fetched.scripts} scripts fetched until ${f(fetched.afterLoadMs / 1000, 0)} s after load, ` +
          `${f(fetched.rawBytes / 1024)} KB raw, ${f(fetched.gzipBytes / 1024)} KB gzip`,
      );
      for (const item of fetched.largest) {
        out.push(`  ${f(item.gzipBytes / 1024)} KB gzip  ${item.path}`);
      }
    }
    const w = client.weight;
    out.push(
      w
        ? `${w.route}: first-load JS per the build's stats (lazy chunks not included) ${f(w.rawBytes / 1024)} KB raw, ${f(w.gzipBytes / 1024)} KB gzip (${w.chunks} chunks)`
        : "route-bundle-stats.json has no chat route",
    );
    for (const usable of client.usable ?? []) {
      out.push(
        `usable page (composer enabled) with ${usable.messages.toLocaleString("en")} messages: ` +
          `p50 ${f(usable.ms.p50, 0)} ms, max ${f(usable.ms.max, 0)} ms over ${usable.ms.n}` +
          (usable.errors ? ` (${usable.errors} errors: ${usable.firstError})` : ""),
      );
    }
  } else {
    out.push(`${client.status.toUpperCase()}: ${client.note ?? ""}`);
  }

  if (results.goals.length) {
    out.push("\nGoals");
    out.push(
      table(
        ["goal", "measured", ""],
        results.goals.map((g) => [
          g.goal,
          g.measured,
          g.met === null ? "n/a" : g.met ? "met" : "NOT MET",
        ]),
        true,
      ),
    );
  }
  if (results.notes.length) out.push(`\nNotes\n${results.notes.map((n) => `- ${n}`).join("\n")}`);
  return out.join("\n");
}
