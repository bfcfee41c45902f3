// SQL statements per plain turn: every statement the server sends from the POST's arrival to the
// turn's close (the session check and the event-log inserts included; BEGIN/COMMIT/ROLLBACK
// not), counted turn by turn. The close is when the POST's stream (and the follower's) ended:
// the terminal event goes out only once the closing statement committed. Before each counted
// turn the server is left to go quiet (the previous turn's background jobs done), so no
// neighbour's jobs fall into the window; what the server sends from the close until it is quiet
// again (the turn's own post-turn work: the outbox hand-over, the runner's claims, the jobs'
// steps) is counted apart, per turn, so nothing is hidden. On PGlite they come from the app's
// own trace (WORKSTREAMS_SQL_TRACE=1: drizzle's logger); on Postgres from the cluster's log with
// `log_statement = all` on the bench database (and the app's trace beside it, as a check).
import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { SqlTrace } from "../lib/servers";
import { round } from "../lib/stats";
import { runTurn, type TurnTarget } from "../lib/turns";

export type StatementSource =
  | { kind: "trace"; trace: SqlTrace }
  | {
      kind: "log";
      file: string;
      /** The bench database's backends, read after each turn. */
      pids: () => Promise<Set<number>>;
      trace?: SqlTrace;
    };

export type StatementsResult = {
  source: "app trace (drizzle logger)" | "log_statement = all";
  turns: number;
  /** Mean statements per turn (to its close) with its follower, the least and most in one turn. */
  perTurn: number;
  /** Mean statements from the close until the server is quiet again (its post-turn work). */
  afterClosePerTurn: number;
  /** How long after the close the server went quiet, p50 (ms). */
  quietAfterMs?: number;
  min: number;
  max: number;
  /** The same turns without a follower. */
  perTurnWithoutFollower?: number;
  /** The app's own trace on Postgres (postgres-js debug), per turn with its follower. */
  tracePerTurn?: number;
  /** One turn's statements, in order (the turn whose count is the median). */
  example: string[];
  /** That turn's statements after its close. */
  exampleAfterClose: string[];
  exampleFollower: boolean;
};

const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|start transaction|end)\b/i;

function readFrom(file: string, from: number): string {
  const length = statSync(file).size - from;
  if (length <= 0) return "";
  const buffer = Buffer.alloc(length);
  const handle = openSync(file, "r");
  try {
    readSync(handle, buffer, 0, length, from);
  } finally {
    closeSync(handle);
  }
  return buffer.toString("utf8");
}

/** Statements in a slice of the Postgres log (prefix '%m [%p] '), from the given backends. */
function loggedStatements(text: string, pids: Set<number>): string[] {
  const out: string[] = [];
  let continuing = false;
  for (const line of text.split("\n")) {
    const entry = /^\d{4}-\d\d-\d\d \S+ \S+ \[(\d+)\] /.exec(line);
    if (!entry) {
      // A statement's further lines follow it as they are.
      if (continuing) out[out.length - 1] = `${out[out.length - 1]} ${line}`;
      continue;
    }
    const match = /LOG: {2}(?:statement|execute [^:]*): (.*)$/.exec(line);
    continuing = Boolean(match && pids.has(Number(entry[1])));
    if (continuing && match) out.push(match[1] ?? "");
  }
  return out.map((s) => s.replace(/\s+/g, " ").trim());
}

/** No statement for this long: the server is quiet (its idle polls come every 1–2 s). */
const QUIET_MS = 300;
/** The longest wait for quiet; a server still busy after it is counted as it is. */
const QUIET_BOUND_MS = 15_000;

/** How many statements the server has sent so far (any count that grows with them). */
async function sentSoFar(source: StatementSource, from: number): Promise<number> {
  if (source.trace) return source.trace.count;
  if (source.kind === "trace") return 0;
  return loggedStatements(readFrom(source.file, from), await source.pids()).length;
}

/** Waits until no statement was sent for QUIET_MS; resolves with how long that took. */
async function quiet(source: StatementSource): Promise<number> {
  const start = performance.now();
  const from = source.kind === "log" ? statSync(source.file).size : 0;
  let seen = await sentSoFar(source, from);
  let since = performance.now();
  while (performance.now() - start < QUIET_BOUND_MS) {
    await new Promise((r) => setTimeout(r, 50));
    const now = await sentSoFar(source, from);
    if (now !== seen) {
      seen = now;
      since = performance.now();
    } else if (performance.now() - since >= QUIET_MS) break;
  }
  return since - start;
}

async function countTurn(
  target: TurnTarget,
  source: StatementSource,
  userIndex: number,
  text: string,
  follower: boolean,
): Promise<{ statements: string[]; after: string[]; traced: number; quietAfterMs: number }> {
  // The previous turn's post-turn work is done before this turn's window opens.
  await quiet(source);
  const stopTrace = source.trace?.record();
  const from = source.kind === "log" ? statSync(source.file).size : 0;
  const turn = await runTurn(target, userIndex, text, 60_000, { follower });
  if (turn.error) throw new Error(`statement count: the turn failed (${turn.error})`);
  const peek = source.trace?.peek() ?? [];
  const tracedAtClose = peek.length;
  const closedAt = source.kind === "log" ? statSync(source.file).size : 0;
  // This turn's own post-turn work: from the close until the server is quiet again.
  const quietAfterMs = await quiet(source);
  const keep = (list: string[]) => list.filter((s) => !TRANSACTION_CONTROL.test(s));
  const traced = stopTrace?.() ?? [];
  if (source.kind === "trace") {
    return {
      statements: keep(traced.slice(0, tracedAtClose)),
      after: keep(traced.slice(tracedAtClose)),
      traced: keep(traced.slice(0, tracedAtClose)).length,
      quietAfterMs,
    };
  }
  const pids = await source.pids();
  const logged = loggedStatements(readFrom(source.file, from), pids);
  const toClose = loggedStatements(readFrom(source.file, from).slice(0, closedAt - from), pids);
  return {
    statements: keep(toClose),
    after: keep(logged.slice(toClose.length)),
    traced: keep(traced.slice(0, tracedAtClose)).length,
    quietAfterMs,
  };
}

export async function runStatements(input: {
  target: TurnTarget;
  source: StatementSource;
  texts: readonly string[];
  turns: number;
  follower: boolean;
}): Promise<StatementsResult> {
  const { target, source, texts } = input;
  // One turn first: the server's first statements of a kind are not a turn's cost, and neither
  // is the memory digest's wait, which an organization's first turn after a start (then at most
  // every 15 minutes) opens: that turn's hand-over is a transaction of three statements where a
  // later turn's is one. So every counted turn is this user's, as a member's next turns are.
  await runTurn(target, 0, texts[0] ?? "", 60_000, { follower: input.follower });
  const withFollower: Array<{
    statements: string[];
    after: string[];
    traced: number;
    quietAfterMs: number;
  }> = [];
  const without: number[] = [];
  for (let i = 0; i < input.turns; i++) {
    const text = texts[(i + 1) % texts.length] ?? "";
    withFollower.push(await countTurn(target, source, 0, text, input.follower));
    if (input.follower) {
      without.push((await countTurn(target, source, 0, text, false)).statements.length);
    }
  }
  const counts = withFollower.map((t) => t.statements.length);
  const sorted = [...counts].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const exampleTurn = withFollower.find((t) => t.statements.length === median);
  const mean = (values: number[]) => round(values.reduce((a, b) => a + b, 0) / values.length, 1);
  return {
    source: source.kind === "trace" ? "app trace (drizzle logger)" : "log_statement = all",
    turns: counts.length,
    perTurn: mean(counts),
    afterClosePerTurn: mean(withFollower.map((t) => t.after.length)),
    quietAfterMs: round(
      [...withFollower.map((t) => t.quietAfterMs)].sort((a, b) => a - b)[
        Math.floor(withFollower.length / 2)
      ] ?? 0,
      0,
    ),
    min: sorted[0] ?? 0,
    max: sorted.at(-1) ?? 0,
    ...(without.length ? { perTurnWithoutFollower: mean(without) } : {}),
    ...(source.kind === "log" && source.trace
      ? { tracePerTurn: mean(withFollower.map((t) => t.traced)) }
      : {}),
    example: exampleTurn?.statements ?? [],
    exampleAfterClose: exampleTurn?.after ?? [],
    exampleFollower: input.follower,
  };
}
