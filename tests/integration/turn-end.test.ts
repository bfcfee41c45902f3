// The bus's SessionTurnEnd on every way a turn ends: completed, stopped while it runs, failed, a
// suspended turn stopped by its owner, a turn reaped after its lease lapsed, and an approval that
// expired. Each ends with exactly one terminal SessionTurnEnd; a suspension announces its own end
// of the run ("suspended") first.
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { turns } from "@/db/schema";
import { approvalExpiry } from "@/inngest/functions/approval-expiry";
import { createEmbeddedRunner } from "@/inngest/runner";
import { drainJobsOnce } from "@/lib/jobs/port";
import { type BusEvent, bus } from "@/lib/turns/bus";
import { reapOrphanedTurns } from "@/lib/turns/lease";
import { runRegistry } from "@/lib/turns/run-registry";
import { wireDomains } from "@/root/wiring";
import { type AppServer, startAppServer } from "../support/app-server";
import { type Owner, send, userWithWorkstream } from "../support/fixtures";
import { readSse } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";
import {
  approvalRows,
  deskWithTarget,
  eventually,
  sendUntilSuspended,
  turnRow,
} from "./approvals-support";

let testDb: TestDatabase;
let server: AppServer;
const ends: Array<Extract<BusEvent, { type: "SessionTurnEnd" }>> = [];
let unlisten: () => void = () => {};

beforeAll(async () => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "1";
  testDb = await useTestDatabase();
  await wireDomains();
  server = await startAppServer();
  unlisten = bus.on((event) => {
    if (event.type === "SessionTurnEnd") ends.push(event);
  });
});
afterAll(async () => {
  unlisten();
  await server?.close();
  await releaseTestDatabase(testDb);
});
afterEach(() => {
  ends.length = 0;
});

/** The states of the turn's SessionTurnEnd events, in the order the bus carried them. */
function endsOf(turnId: string): string[] {
  return ends.filter((event) => event.turnId === turnId).map((event) => event.state);
}

/** Waits for the turn's terminal end, then a moment more so a second one would be seen. */
async function settledEnds(turnId: string): Promise<string[]> {
  await eventually(async () => {
    const states = endsOf(turnId);
    return states.some((state) => state !== "suspended");
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  return endsOf(turnId);
}

function stop(owner: Owner) {
  return owner.client.json<{ turnId: string; state: string }>(
    `/api/workstreams/${owner.workstreamId}/stop`,
    { method: "POST", json: {} },
  );
}

describe("M2 every terminal path of a turn emits exactly one SessionTurnEnd", () => {
  it("a completed turn", async () => {
    const owner = await userWithWorkstream(server.url);
    const response = await send(owner, "hello there");
    const turnId = String(response.headers.get("x-turn-id"));
    await readSse(response);
    expect(await settledEnds(turnId)).toEqual(["completed"]);
  });

  it("a turn stopped while it runs", async () => {
    const owner = await userWithWorkstream(server.url);
    const response = await send(owner, "[hang] keep thinking");
    const turnId = String(response.headers.get("x-turn-id"));
    await readSse(response, { limit: 3 });
    expect((await stop(owner)).body.state).toBe("cancelled");
    expect(await settledEnds(turnId)).toEqual(["cancelled"]);
  });

  it("a failed turn", async () => {
    const owner = await userWithWorkstream(server.url);
    const response = await send(owner, "[fail] please");
    const turnId = String(response.headers.get("x-turn-id"));
    await readSse(response);
    expect(await settledEnds(turnId)).toEqual(["failed"]);
  });

  it("a suspended turn stopped by its owner", async () => {
    const desk = await deskWithTarget(server.url);
    const { turnId } = await sendUntilSuspended(desk, "tell my Launch notes workstream: wait");
    const stopped = await stop(desk);
    expect(stopped.body).toEqual({ turnId, state: "cancelled" });
    expect(await settledEnds(turnId)).toEqual(["suspended", "cancelled"]);
    const end = ends.find((event) => event.turnId === turnId && event.state === "cancelled");
    expect(end?.workstreamId).toBe(desk.workstreamId);
  });

  it("a turn reaped after its lease lapsed, and its own late close adds none", async () => {
    const owner = await userWithWorkstream(server.url);
    const response = await send(owner, "[hang] think about this forever");
    const turnId = String(response.headers.get("x-turn-id"));
    await readSse(response, { limit: 3 });
    // As if another server process held it and died: its lease lapsed.
    await (await getDb())
      .update(turns)
      .set({ ownerId: "gone-host:1:dead", leaseExpiresAt: sql`now() - interval '1 minute'` })
      .where(eq(turns.id, turnId));
    expect(await reapOrphanedTurns()).toContain(turnId);
    expect((await turnRow(turnId))?.state).toBe("failed");
    // The run still held here ends too; the turn is closed already, so it announces nothing.
    const run = runRegistry.get(turnId);
    runRegistry.abort(turnId, "turn:stopped");
    await run?.done;
    expect(await settledEnds(turnId)).toEqual(["failed"]);
  });

  it("a turn whose approval expired", async () => {
    const desk = await deskWithTarget(server.url);
    const { turnId } = await sendUntilSuspended(desk, "tell my Launch notes workstream: ship it");
    const [approval] = await approvalRows(turnId);
    const runner = createEmbeddedRunner({
      functions: [approvalExpiry],
      clock: { now: () => (approval?.expiresAt.getTime() ?? 0) + 1_000 },
      processId: "turn-end-expiry",
    });
    try {
      await eventually(async () => {
        // The expiry leaves the outbox for the job table, then runs at its deadline.
        await drainJobsOnce();
        await runner.runDue();
        return (await approvalRows(turnId))[0]?.state === "expired";
      });
    } finally {
      await runner.stop();
    }
    await eventually(async () => (await turnRow(turnId))?.state === "completed");
    expect(await settledEnds(turnId)).toEqual(["suspended", "completed"]);
  });
});
