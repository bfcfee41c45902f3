// The event log's batching writer commits every running turn's events in one insert. A batch the
// database refuses must fail only the turn whose event was refused, and leave no holes.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { turnEvents } from "@/db/schema";
import { config } from "@/lib/config";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { statusChunk } from "@/lib/stream/types";
import { type AppServer, startAppServer } from "../support/app-server";
import { type Owner, send, userWithWorkstream } from "../support/fixtures";
import { readSse, type SseEvent, statuses } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

let testDb: TestDatabase;
let server: AppServer;
// The tick is a constant of the host config; this test lengthens it, then puts it back.
const turnSettings = config.turns as { flushIntervalMs: number };
const flushIntervalMs = turnSettings.flushIntervalMs;

beforeAll(async () => {
  testDb = await useTestDatabase();
  server = await startAppServer();
});
afterAll(async () => {
  turnSettings.flushIntervalMs = flushIntervalMs;
  await server?.close();
  await releaseTestDatabase(testDb);
});

async function offsetsOf(workstreamId: string): Promise<{ max: number; count: number }> {
  const db = await getDb();
  const [row] = await db
    .select({
      max: sql<string | number | null>`max(${turnEvents.offset})`,
      count: sql<string | number>`count(*)`,
    })
    .from(turnEvents)
    .where(sql`${turnEvents.workstreamId} = ${workstreamId}`);
  return { max: Number(row?.max ?? 0), count: Number(row?.count ?? 0) };
}

/** Starts a slow turn and resolves once its first text arrived; `rest` reads it to the end. */
async function startSlowTurn(owner: Owner) {
  const response = await send(owner, "[slow:40] [words:600] tell me a long story");
  expect(response.status).toBe(200);
  const turnId = response.headers.get("x-turn-id") ?? "";
  const events: SseEvent[] = [];
  let firstText: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    firstText = resolve;
  });
  const rest = readSse(response, {
    onEvent: (event) => {
      events.push(event);
      if (event.data.type === "text-delta") firstText();
    },
  });
  await Promise.race([started, rest]);
  return { turnId, events, rest };
}

/** Writes the row a stale lease holder would: the next offset of the turn's workstream. */
async function takeNextOffset(workstreamId: string, turnId: string): Promise<number> {
  const db = await getDb();
  for (;;) {
    const { max } = await offsetsOf(workstreamId);
    try {
      await db.insert(turnEvents).values({
        workstreamId,
        turnId,
        offset: max + 1,
        chunk: statusChunk(turnId, { state: "processing", stage: "STREAM_RESPONSE" }),
      });
      return max + 1;
    } catch {
      // The turn committed that offset first; take the next one.
    }
  }
}

describe("the event log writer", () => {
  it("S2b a failed batch fails only the offending turn; the others complete and no workstream has a hole", async () => {
    // Long ticks, so one batch holds events of all three turns.
    turnSettings.flushIntervalMs = 300;
    const warn = vi.spyOn(console, "warn");
    const logged = vi.spyOn(console, "error");
    const owners = [
      await userWithWorkstream(server.url, "Healthy One"),
      await userWithWorkstream(server.url, "Healthy Two"),
      await userWithWorkstream(server.url, "Stale Holder"),
    ];
    const [healthyOne, healthyTwo, offending] = await Promise.all(owners.map(startSlowTurn));
    if (!healthyOne || !healthyTwo || !offending) throw new Error("three turns expected");
    const taken = await takeNextOffset(owners[2]?.workstreamId ?? "", offending.turnId);

    const results = await Promise.all([healthyOne.rest, healthyTwo.rest, offending.rest]);
    turnSettings.flushIntervalMs = flushIntervalMs;
    expect(results.map((result) => result.done)).toEqual([true, true, true]);
    expect(statuses(healthyOne.events).at(-1)).toBe("ready");
    expect(statuses(healthyTwo.events).at(-1)).toBe("ready");
    expect(statuses(offending.events).at(-1)).toBe("error");
    const error = offending.events.find((event) => event.data.type === "error");
    expect(error?.data.errorText).toBe(ERROR_SENTENCES["turn:failed"]);
    const status = offending.events.at(-1)?.data.data as { code?: string };
    expect(status.code).toBe("turn:failed");
    // The batch that was refused held events of all three turns.
    expect(warn.mock.calls.some(([line]) => /from 3 turns was refused/.test(String(line)))).toBe(
      true,
    );
    // Logs name the turn and the error's class: never the query, its parameters or other rows.
    const lines = [...warn.mock.calls, ...logged.mock.calls].map((args) =>
      args
        .map((arg) => (arg instanceof Error ? `${arg.message}${arg.stack}` : String(arg)))
        .join(" "),
    );
    for (const line of lines) {
      expect(line).not.toMatch(/insert into|params|turn_events/i);
      for (const owner of owners.slice(0, 2)) expect(line).not.toContain(owner.workstreamId);
    }
    warn.mockRestore();
    logged.mockRestore();

    for (const owner of owners) {
      const { max, count } = await offsetsOf(owner.workstreamId);
      expect(max).toBe(count);
    }
    // The offending turn's closing events come after the stale holder's row.
    const closing = offending.events.at(-1)?.offset ?? 0;
    expect(closing).toBeGreaterThan(taken);

    // Every workstream is usable again.
    const info = await owners[2]?.client.json<{ isRunning: boolean }>(
      `/api/workstreams/${owners[2]?.workstreamId}`,
    );
    expect(info?.body.isRunning).toBe(false);
  });
});
