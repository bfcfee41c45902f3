// How the last turn ended, as a reloaded chat page learns it (the page and GET /api/workstreams/:id
// share describeWorkstream): from the turn's row, whatever event the log ends with.
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { turnEvents } from "@/db/schema";
import { type Owner, send } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { readSse } from "../support/sse";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "1" } });

type Description = {
  activeTurn: unknown;
  lastTurn: Record<string, unknown> | null;
  latestOffset: number;
};

async function describeIt(owner: Owner): Promise<Description> {
  const response = await owner.client.json<Description>(`/api/workstreams/${owner.workstreamId}`);
  expect(response.status).toBe(200);
  return response.body;
}

/** The final status event the turn's stream ended with. */
async function finalStatus(response: Response): Promise<Record<string, unknown>> {
  const { events, done } = await readSse(response);
  expect(done).toBe(true);
  const status = events.filter((event) => event.data.type === "data-status").at(-1);
  if (!status) throw new Error("the stream carried no status");
  const { data } = status.data;
  if (typeof data !== "object" || data === null) throw new Error("a status without data");
  return data as Record<string, unknown>;
}

describe("the last turn after a reload", () => {
  it("H7 a failed last turn shows its error from the turn row when the log ends with another event", async () => {
    const owner = await app.owner();
    const live = await finalStatus(await send(owner, "[fail] please"));
    expect(live.state).toBe("error");
    const before = await describeIt(owner);
    // Something else is logged after the turn closed (a later kind of event, not a status).
    const db = await getDb();
    await db.insert(turnEvents).values({
      workstreamId: owner.workstreamId,
      offset: before.latestOffset + 1,
      turnId: String(live.turnId),
      chunk: { type: "data-note", data: { text: "logged after the turn" } },
    });
    const after = await describeIt(owner);
    expect(after.latestOffset).toBe(before.latestOffset + 1);
    expect(after.activeTurn).toBeNull();
    expect(after.lastTurn).toEqual({
      turnId: live.turnId,
      state: "error",
      code: live.code,
      message: live.message,
      retryable: live.retryable,
    });
  });

  it("H7 a completed last turn reads as ready, a stopped one as cancelled with its reason", async () => {
    const owner = await app.owner();
    const done = await finalStatus(await send(owner, "hello"));
    expect((await describeIt(owner)).lastTurn).toEqual({ turnId: done.turnId, state: "ready" });

    const response = await send(owner, "[hang] keep going");
    const stop = await owner.client.json<{ state: string }>(
      `/api/workstreams/${owner.workstreamId}/stop`,
      { method: "POST", json: {} },
    );
    expect(stop.body.state).toBe("cancelled");
    const stopped = await finalStatus(response);
    expect((await describeIt(owner)).lastTurn).toEqual({
      turnId: stopped.turnId,
      state: "cancelled",
      reason: stopped.reason,
    });
  });

  it("H7 a workstream without turns has no last turn", async () => {
    const owner = await app.owner();
    expect((await describeIt(owner)).lastTurn).toBeNull();
  });
});
