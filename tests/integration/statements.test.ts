// How much SQL one plain turn costs: every statement from the POST's arrival to the turn's close.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushEventLog } from "@/lib/stream/event-log";
import { type AppServer, startAppServer } from "../support/app-server";
import { type Owner, send, userWithWorkstream } from "../support/fixtures";
import { readSse, statuses, textOf } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

let testDb: TestDatabase;
let server: AppServer;
let recording: string[] | null = null;

beforeAll(async () => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  testDb = await useTestDatabase({
    onQuery: (query) => {
      // Not the app's: postgres-js looks up array types once per new pooled connection.
      if (/from pg_catalog\.pg_type/.test(query)) return;
      if (!/^\s*(begin|commit|rollback)\b/i.test(query)) recording?.push(query);
    },
  });
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

describe("the turn's hot path", () => {
  it("H2 a plain follow-up turn with one follower sends at most 8 SQL statements", async () => {
    const owner: Owner = await userWithWorkstream(server.url);
    const warmUp = await readSse(await send(owner, "hello there"));
    const lastOffset = Math.max(...warmUp.events.map((event) => event.offset ?? 0));
    await flushEventLog();
    recording = [];
    const response = await send(owner, "and again");
    // A second tab follows the same turn from where it was, as the benchmark's follower does.
    const follower = await owner.client.fetch(
      `/api/workstreams/${owner.workstreamId}/events?after=${lastOffset}`,
    );
    const [own, followed] = await Promise.all([readSse(response), readSse(follower)]);
    expect(statuses(followed.events).at(-1)).toBe("ready");
    expect(textOf(followed.events)).toBe(textOf(own.events));
    await flushEventLog();
    const statements = recording;
    recording = null;
    console.log(
      statements.map((s, i) => `${i + 1}. ${s.replaceAll(/\s+/g, " ").slice(0, 200)}`).join("\n"),
    );
    expect(statements.length).toBeLessThanOrEqual(8);
  });

  it("H2 a tool that needs no approval adds no statement of the approval machinery", async () => {
    const owner: Owner = await userWithWorkstream(server.url);
    await readSse(await send(owner, "hello there"));
    await flushEventLog();
    recording = [];
    const { events } = await readSse(await send(owner, "What time is it? [tool:current_time]"));
    expect(statuses(events).at(-1)).toBe("ready");
    expect(events.some((event) => event.data.type === "tool-output-available")).toBe(true);
    await flushEventLog();
    const statements = recording;
    recording = null;
    expect(statements.filter((statement) => /approval/i.test(statement))).toEqual([]);
    expect(statements.length).toBeLessThanOrEqual(8);
  });
});
