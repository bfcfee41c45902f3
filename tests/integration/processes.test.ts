// Several server processes: kill -9 mid-turn and restart (nothing lost, nothing stuck), a second
// process refused on a locked PGlite data dir, and on Postgres a turn started on server A that
// server B follows and stops (R6: any server process can serve any turn).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildServer, spawnServer } from "../support/child-server";
import { type Owner, send, userWithWorkstream } from "../support/fixtures";
import { messageText, readSse, statuses, textOf } from "../support/sse";
import { createTestDatabase, type TestDatabase, testDbKind } from "../support/test-db";

type History = {
  messages: Array<{
    id: string;
    role: string;
    parts: Array<{ type: string; text?: string }>;
    metadata: Record<string, unknown>;
  }>;
};

let dataDir = "";
let testDb: TestDatabase | undefined;
let serverEnv: Record<string, string>;
const children: ChildServer[] = [];

async function start(): Promise<ChildServer> {
  const child = await spawnServer(serverEnv);
  children.push(child);
  return child;
}

beforeAll(async () => {
  if (testDbKind() === "postgres") {
    testDb = await createTestDatabase();
    await testDb.handle.close();
    serverEnv = { DATABASE_URL: testDb.url ?? "" };
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), "ws-proc-"));
    serverEnv = { PGLITE_DATA_DIR: path.join(dataDir, "pglite") };
  }
});
afterAll(async () => {
  for (const child of children) await child.kill();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await testDb?.drop();
});

async function historyOf(owner: Owner, client = owner.client) {
  return (await client.json<History>(`/api/workstreams/${owner.workstreamId}/messages?take=20`))
    .body;
}

describe("crash safety", () => {
  it("kill -9 mid-turn, restart: the turn ends failed, the partial answer is kept, the workstream is usable", async () => {
    const first = await start();
    const owner = await userWithWorkstream(first.url, "Crash Tester");
    const controller = new AbortController();
    const response = await send(owner, "[hang] long thinking", "m_crash", controller.signal);
    const seen = await readSse(response, { until: (event) => event.data.type === "text-delta" });
    expect(textOf(seen.events).length).toBeGreaterThan(0);
    await first.kill("SIGKILL");

    const second = await start();
    const client = owner.client.at(second.url);
    const info = await client.json<{ isRunning: boolean }>(
      `/api/workstreams/${owner.workstreamId}`,
    );
    expect(info.status).toBe(200);
    expect(info.body.isRunning).toBe(false);
    const afterCrash = await historyOf(owner, client);
    expect(afterCrash.messages.map((message) => message.id)[0]).toBe("m_crash");
    const partial = afterCrash.messages[1];
    expect(partial?.role).toBe("assistant");
    expect(messageText(partial ?? { parts: [] })).toBe(textOf(seen.events));
    expect(partial?.metadata.failed).toBe(true);

    const log = await readSse(
      await client.fetch(`/api/workstreams/${owner.workstreamId}/events?after=0`),
    );
    expect(statuses(log.events).at(-1)).toBe("error");

    const next = await client.fetch(`/api/workstreams/${owner.workstreamId}/messages`, {
      method: "POST",
      json: {
        message: {
          id: "m_after",
          role: "user",
          parts: [{ type: "text", text: "[echo] still here" }],
        },
      },
    });
    expect(next.status).toBe(200);
    const nextEvents = await readSse(next);
    expect(statuses(nextEvents.events).at(-1)).toBe("ready");
    const final = await historyOf(owner, client);
    expect(final.messages.map((message) => message.id).filter((id) => id.startsWith("m_"))).toEqual(
      ["m_crash", "m_after"],
    );
    await second.kill("SIGTERM");
  });

  it.runIf(testDbKind() === "pglite")(
    "a second process on the same PGlite data dir stops at once with a clear message",
    async () => {
      const holder = await start();
      const error = await spawnServer(serverEnv).then(
        async (child) => {
          await child.kill();
          return null;
        },
        (failure: Error & { output?: string }) => failure,
      );
      expect(error?.output).toMatch(/in use by another Workstreams process/);
      await holder.kill("SIGTERM");
    },
  );
});

describe.runIf(testDbKind() === "postgres")("two server processes on one Postgres", () => {
  it("R6 a turn started on A is followed live and stopped from B", async () => {
    const a = await start();
    const b = await start();
    const owner = await userWithWorkstream(a.url, "Two Servers");
    const controller = new AbortController();
    const started = await send(
      owner,
      "[words:3000] [slow:20] a very long answer",
      "m_two",
      controller.signal,
    );
    const early = await readSse(started, { limit: 4 });
    controller.abort();
    const onB = owner.client.at(b.url);
    const info = await onB.json<{ isRunning: boolean; activeTurn: { firstOffset: number } }>(
      `/api/workstreams/${owner.workstreamId}`,
    );
    expect(info.body.isRunning).toBe(true);
    const follower = readSse(
      await onB.fetch(
        `/api/workstreams/${owner.workstreamId}/events?after=${info.body.activeTurn.firstOffset - 1}`,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stop = await onB.json<{ state: string }>(`/api/workstreams/${owner.workstreamId}/stop`, {
      method: "POST",
      json: {},
    });
    expect(stop.status).toBe(200);
    expect(stop.body.state).toBe("cancelled");
    const followed = await follower;
    expect(followed.done).toBe(true);
    expect(statuses(followed.events).at(-1)).toBe("cancelled");
    expect(followed.events.slice(0, early.events.length).map((event) => event.offset)).toEqual(
      early.events.map((event) => event.offset),
    );
    const history = await historyOf(owner, onB);
    const answer = history.messages.find((message) => message.role === "assistant");
    expect(answer?.metadata.stopped).toBe(true);
    expect(messageText(answer ?? { parts: [] })).toBe(textOf(followed.events));
    expect(messageText(answer ?? { parts: [] }).split(/\s+/).length).toBeLessThan(3000);
  });
});
