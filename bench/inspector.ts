// `node --conditions=react-server --import tsx bench/inspector.ts [--runs=200] [--events=1000]
// [--tools=40] [--other-turns=2000] [--json=FILE]`: how long the turn inspector takes on the server to read
// and assemble one turn: a turn with `--events` logged events, `--tools` tool calls (each timed
// in its timeline, every fourth approved by the member), two runs (it waited for an approval),
// retries and a fallback, and its post-turn job, in an embedded database that also holds
// `--other-turns` other turns with their outbox events and jobs. Times `inspectTurn` itself (the
// route adds the session check), warm, sequentially. Prints a table; writes
// bench/results/inspector.json (or FILE). The turn's path does not include any of it.
// `npm run bench` runs it as its section "inspector".
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseFlags } from "./lib/script";

const flags = parseFlags(process.argv.slice(2));
const runs = Number(flags.get("runs") ?? 200);
const eventCount = Number(flags.get("events") ?? 1_000);
const toolCount = Number(flags.get("tools") ?? 40);
const otherTurns = Number(flags.get("other-turns") ?? 2_000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main() {
  const { openDatabase, setDatabase, getDb, closeDatabase } = await import("../db/client");
  const { migrateDatabase } = await import("../db/migrate");
  const schema = await import("../db/schema");
  const { inspectTurn } = await import("../lib/inspector/turn");
  const handle = await openDatabase({ kind: "pglite", dataDir: "memory://", lock: false });
  setDatabase(handle);
  await migrateDatabase(handle);
  const db = await getDb();
  const id = "bench";
  await db.insert(schema.user).values({ id, name: "Bench", email: "bench@example.test" });
  await db.insert(schema.organization).values({ id, name: "Bench", slug: id });
  await db.insert(schema.workstreams).values({
    id,
    organizationId: id,
    ownerId: id,
    mode: "group",
    agentId: "chief",
    title: "Inspector bench",
  });
  const seedStarted = performance.now();
  // Other turns, each with its outbox event and a job run, so the lookups have company.
  for (let at = 0; at < otherTurns; at += 500) {
    const batch = Array.from({ length: Math.min(500, otherTurns - at) }, (_, k) => at + k);
    await db.insert(schema.turns).values(
      batch.map((n) => ({
        id: `turn_other_${n}`,
        workstreamId: id,
        organizationId: id,
        userId: id,
        userMessageId: `u_other_${n}`,
        assistantMessageId: `a_other_${n}`,
        state: "completed" as const,
        usage: { inputTokens: 100, outputTokens: 20 },
        costUsd: 0.0001,
        endedAt: new Date(),
      })),
    );
    await db.insert(schema.jobEvents).values(
      batch.map((n) => ({
        id: `ev_other_${n}`,
        name: "workstreams/turn.completed",
        data: { turnId: `turn_other_${n}`, workstreamId: id },
        dispatchedAt: new Date(),
      })),
    );
    await db.insert(schema.jobs).values(
      batch.map((n) => ({
        id: `job_other_${n}`,
        functionId: "workstreams-title-generation",
        eventId: `ev_other_${n}`,
        event: {},
        state: "completed" as const,
        maxAttempts: 3,
      })),
    );
  }

  const turnId = "turn_inspected";
  const tools = Array.from({ length: toolCount }, (_, n) => ({
    type: "tool-calculate",
    toolCallId: `call_${n}`,
    state: "output-available",
    input: { expression: `${n} * 2` },
    output: { value: n * 2 },
  }));
  const stage = (name: string, at: number, ms: number, extra = {}) => ({
    stage: name,
    at,
    ms,
    outcome: "ok",
    ...extra,
  });
  const run = (offset: number, state: string) => ({
    startedAt: new Date().toISOString(),
    ms: 4_000,
    state,
    stages: [
      stage("RECEIVE_INPUT", 0, 3),
      stage("COMPOSE_REQUEST", 3, 12),
      stage("SEND_REQUEST", 15, 2),
      stage("STREAM_RESPONSE", 17, 3_900),
      ...tools.slice(offset, offset + toolCount / 2).map((tool, n) =>
        stage("TOOL_CALL", 100 + n * 50, 20, {
          toolName: "calculate",
          toolCallId: tool.toolCallId,
        }),
      ),
      stage("RENDER", 3_917, 8),
    ],
    steps: Array.from({ length: toolCount / 2 }, () => ({
      modelId: "gpt-4.1-mini",
      finishReason: "tool-calls",
      usage: { inputTokens: 1_200, outputTokens: 40 },
      costUsd: 0.0005,
    })),
  });
  await db.insert(schema.turns).values({
    id: turnId,
    workstreamId: id,
    organizationId: id,
    userId: id,
    userMessageId: "u_inspected",
    assistantMessageId: "a_inspected",
    state: "completed",
    reason: null,
    model: "gpt-4.1-nano",
    usage: { inputTokens: 48_000, outputTokens: 1_600 },
    costUsd: 0.02,
    firstOffset: 1,
    lastOffset: eventCount,
    attempts: [
      {
        modelId: "gpt-4.1-mini",
        attempt: 1,
        outcome: "failed",
        error: "model:unavailable",
        startedAt: new Date().toISOString(),
        ms: 40,
      },
      {
        modelId: "gpt-4.1-mini",
        attempt: 2,
        outcome: "failed",
        error: "model:unavailable",
        startedAt: new Date().toISOString(),
        ms: 40,
      },
      {
        modelId: "gpt-4.1-nano",
        attempt: 3,
        outcome: "ok",
        startedAt: new Date().toISOString(),
        ms: 300,
        firstTokenMs: 300,
        durationMs: 900,
      },
    ],
    timeline: [run(0, "suspended"), run(toolCount / 2, "completed")],
    startedAt: new Date(),
    endedAt: new Date(),
  });
  await db.insert(schema.messages).values({
    workstreamId: id,
    id: "a_inspected",
    role: "assistant",
    parts: [{ type: "text", text: "Worked through it." }, ...tools],
    tokenCount: 2_000,
    turnId,
  });
  for (let at = 0; at < eventCount; at += 500) {
    await db.insert(schema.turnEvents).values(
      Array.from({ length: Math.min(500, eventCount - at) }, (_, k) => ({
        workstreamId: id,
        offset: at + k + 1,
        turnId,
        chunk: { type: "text-delta", id: "t", delta: "A piece of the answer, forty-odd chars. " },
      })),
    );
  }
  const approved = tools.filter((_, n) => n % 4 === 0);
  await db.insert(schema.approvalDecisions).values(
    approved.map((tool) => ({
      id: `dec_${tool.toolCallId}`,
      organizationId: id,
      workstreamId: id,
      turnId,
      toolName: "calculate",
      toolCallId: tool.toolCallId,
      argsHash: "hash",
      decision: "approved" as const,
      source: "user" as const,
      decidedBy: id,
    })),
  );
  await db.insert(schema.jobEvents).values({
    id: "ev_inspected",
    name: "workstreams/turn.completed",
    data: { turnId, workstreamId: id },
    dispatchedAt: new Date(),
  });
  await db.insert(schema.jobs).values(
    ["workstreams-title-generation", "workstreams-memory-extraction", "workstreams-activity"].map(
      (functionId) => ({
        id: `job_${functionId}`,
        functionId,
        eventId: "ev_inspected",
        event: {},
        state: "completed" as const,
        maxAttempts: 3,
      }),
    ),
  );
  const seedSec = (performance.now() - seedStarted) / 1_000;

  const results: Record<
    string,
    { runs: number; p50Ms: number; p95Ms: number; maxMs: number; bytes: number }
  > = {};
  for (const viewer of [
    { kind: "owner" as const, organizationId: id, userId: id },
    { kind: "admin" as const, organizationId: id },
  ]) {
    const once = () => inspectTurn({ viewer, workstreamId: id, turnId });
    const record = await once();
    if (
      record.tools.length !== toolCount ||
      record.runs.length !== 2 ||
      record.turn.events !== eventCount
    ) {
      throw new Error(`unexpected inspection: ${JSON.stringify(record).slice(0, 400)}`);
    }
    for (let i = 0; i < 20; i++) await once(); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await once();
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 100) / 100;
    results[viewer.kind] = {
      runs,
      p50Ms: round(percentile(samples, 50)),
      p95Ms: round(percentile(samples, 95)),
      maxMs: round(samples.at(-1) ?? 0),
      bytes: JSON.stringify(record).length,
    };
  }
  await closeDatabase();
  console.log(
    `\nTurn inspector, server time (PGlite, ${eventCount} events, ${toolCount} tool calls, ${otherTurns} other turns; seeded in ${seedSec.toFixed(1)} s)\n`,
  );
  console.log("| viewer | runs | p50 ms | p95 ms | max ms | payload bytes |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const [viewer, row] of Object.entries(results)) {
    console.log(
      `| ${viewer} | ${row.runs} | ${row.p50Ms} | ${row.p95Ms} | ${row.maxMs} | ${row.bytes} |`,
    );
  }
  const out = path.resolve(flags.get("json") ?? "bench/results/inspector.json");
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ events: eventCount, tools: toolCount, otherTurns, results }, null, 2)}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
