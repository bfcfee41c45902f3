// The HTTP edge of the turn engine: the routes turn its values and errors into responses
// (Retry-After, SSE, the resume offset from the query or the Last-Event-ID header).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import { type AppServer, startAppServer } from "../support/app-server";
import { send, userWithWorkstream } from "../support/fixtures";
import { readSse } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

vi.hoisted(() => {
  // A message waits this long for a compaction to end before its turn goes ahead regardless.
  process.env.WORKSTREAMS_COMPACTION_WAIT_MS = "300";
});

let testDb: TestDatabase;
let server: AppServer;

beforeAll(async () => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "1";
  testDb = await useTestDatabase();
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

describe("the HTTP edge", () => {
  it("T1 a message sent while the workstream compacts waits, then goes ahead instead of failing", async () => {
    const owner = await userWithWorkstream(server.url);
    const db = await getDb();
    // A live compaction that will not finish within the wait.
    await db
      .update(workstreams)
      .set({
        isCompacting: true,
        compactionToken: "held-by-another-process",
        compactionLeaseExpiresAt: new Date(Date.now() + 60_000),
      })
      .where(eq(workstreams.id, owner.workstreamId));
    const response = await send(owner, "hello");
    expect(response.status).toBe(200);
    const turn = await readSse(response);
    expect(turn.done).toBe(true);
    const [row] = await db.select().from(workstreams).where(eq(workstreams.id, owner.workstreamId));
    expect(row?.isCompacting).toBe(true);
  });

  it("H1 the events route resumes after ?after, which wins over Last-Event-ID", async () => {
    const owner = await userWithWorkstream(server.url);
    const turn = await readSse(await send(owner, "hello"));
    expect(turn.done).toBe(true);
    const last = turn.events.at(-1)?.offset ?? 0;
    const response = await owner.client.fetch(
      `/api/workstreams/${owner.workstreamId}/events?after=${last - 1}`,
      { headers: { "last-event-id": "0" } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const tail = await readSse(response);
    expect(tail.events.map((event) => event.offset)).toEqual([last]);
  });

  it("H1 an offset past the log is 400 bad_request:offset naming the latest offset", async () => {
    const owner = await userWithWorkstream(server.url);
    const response = await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/events`, {
      headers: { "last-event-id": "999" },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; latestOffset: number } };
    expect(body.error).toMatchObject({ code: "bad_request:offset", latestOffset: 0 });
  });
});
