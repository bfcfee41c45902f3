// The turn engine over HTTP (seeds 000, 001, 002, 003): streaming, durable events with offsets,
// resume, stop, one turn at a time, retry and bad input.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { messages, turns } from "@/db/schema";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { registerHook } from "@/lib/turns/hooks";
import { renewLeases } from "@/lib/turns/lease";
import { runRegistry } from "@/lib/turns/run-registry";
import { type AppServer, startAppServer } from "../support/app-server";
import { type Owner, send, userMessage, userWithWorkstream } from "../support/fixtures";
import { HttpClient, signUp } from "../support/http-client";
import { messageText, readSse, type SseEvent, statuses, textOf } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

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

type History = {
  messages: Array<{
    id: string;
    role: string;
    parts: Array<{ type: string; text?: string }>;
    metadata: Record<string, unknown>;
  }>;
  prevCursor: string | null;
  hasMore: boolean;
};

async function history(owner: Owner, query = "") {
  const response = await owner.client.json<History>(
    `/api/workstreams/${owner.workstreamId}/messages${query}`,
  );
  expect(response.status).toBe(200);
  return response.body;
}

async function info(owner: Owner) {
  return (
    await owner.client.json<{
      isRunning: boolean;
      activeTurn: { id: string; firstOffset: number } | null;
      latestOffset: number;
    }>(`/api/workstreams/${owner.workstreamId}`)
  ).body;
}

async function waitIdle(owner: Owner) {
  for (let i = 0; i < 200; i++) {
    if (!(await info(owner)).isRunning) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("turn did not finish");
}

describe("a turn", () => {
  it("T14 streams the answer as UI message chunks with increasing offsets, then persists it (E4, T18, W8)", async () => {
    const owner = await userWithWorkstream(server.url);
    const response = await send(owner, "Plan a product launch for our new app");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const turnId = response.headers.get("x-turn-id");
    const { events, done } = await readSse(response);
    expect(done).toBe(true);
    const offsets = events.map((event) => event.offset ?? -1);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(new Set(offsets).size).toBe(offsets.length);
    expect(statuses(events)[0]).toBe("acknowledged");
    expect(statuses(events)).toContain("processing");
    expect(statuses(events).at(-1)).toBe("ready");
    expect(events.map((event) => event.data.type)).toContain("finish");
    const streamed = textOf(events);
    expect(streamed.length).toBeGreaterThan(50);

    const page = await history(owner);
    expect(page.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    const assistant = page.messages[1];
    expect(messageText(assistant ?? { parts: [] })).toBe(streamed);
    expect(assistant?.metadata).toMatchObject({
      agentId: "chief",
      turnId,
      reasoningProfile: "balanced",
    });
    expect(Number(assistant?.metadata.outputTokens)).toBeGreaterThan(0);
    expect(Number(assistant?.metadata.inputTokens)).toBeGreaterThan(0);
    expect(assistant?.metadata.startedAt).toBeTruthy();
    expect(assistant?.metadata.finishedAt).toBeTruthy();
    expect((await info(owner)).isRunning).toBe(false);
  });

  it("T17 sends text in chunks of 36–72 characters, the first one at once", async () => {
    const owner = await userWithWorkstream(server.url);
    const { events } = await readSse(await send(owner, "[words:400] tell me everything"));
    const deltas = events
      .filter((event) => event.data.type === "text-delta")
      .map((event) => String(event.data.delta));
    expect(deltas.length).toBeGreaterThan(10);
    for (const delta of deltas.slice(1, -1)) {
      expect(delta.length).toBeGreaterThanOrEqual(36);
      expect(delta.length).toBeLessThanOrEqual(72);
    }
  });

  it("T4 persists the user message before the model answers, and T26 stop keeps the partial answer", async () => {
    const owner = await userWithWorkstream(server.url);
    const controller = new AbortController();
    const response = await send(
      owner,
      "[hang] think about this forever",
      "m_hang_1",
      controller.signal,
    );
    const first = await readSse(response, { limit: 4 });
    expect(first.events.length).toBe(4);
    // The model has not finished, yet the user message is durable and the workstream is busy.
    const during = await history(owner);
    expect(during.messages.map((message) => message.id)).toEqual(["m_hang_1"]);
    expect((await info(owner)).isRunning).toBe(true);

    const stop = await owner.client.json<{ turnId: string; state: string }>(
      `/api/workstreams/${owner.workstreamId}/stop`,
      { method: "POST", json: {} },
    );
    expect(stop.status).toBe(200);
    expect(stop.body.state).toBe("cancelled");
    const after = await history(owner);
    expect(after.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(messageText(after.messages[1] ?? { parts: [] }).length).toBeGreaterThan(0);
    expect(after.messages[1]?.metadata.stopped).toBe(true);
    expect((await info(owner)).isRunning).toBe(false);

    // The event log ends the turn with a cancelled status, for anyone who resumes.
    const resumed = await readSse(
      await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/events?after=0`),
    );
    expect(statuses(resumed.events).at(-1)).toBe("cancelled");
  });

  it("T27 a client disconnect does not stop the turn (R5)", async () => {
    const owner = await userWithWorkstream(server.url);
    const controller = new AbortController();
    const response = await send(
      owner,
      "[words:300] [slow:3] a long answer please",
      undefined,
      controller.signal,
    );
    await readSse(response, { limit: 3 });
    controller.abort();
    await waitIdle(owner);
    const page = await history(owner);
    expect(page.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(
      messageText(page.messages[1] ?? { parts: [] })
        .split(/\s+/)
        .filter(Boolean).length,
    ).toBe(300);
  });
});

describe("resume", () => {
  it("E4 resuming after any offset gives every later event exactly once: 100 random disconnect points", async () => {
    const owner = await userWithWorkstream(server.url);
    const controller = new AbortController();
    const first = await send(owner, "[words:1500] [slow:2] an essay", undefined, controller.signal);
    let random = 42;
    const next = () => {
      random = (random * 1103515245 + 12345) % 2 ** 31;
      return random;
    };
    const seen: SseEvent[] = [];
    const firstRead = await readSse(first, { limit: 1 + (next() % 4) });
    seen.push(...firstRead.events);
    controller.abort();
    let disconnects = 1;
    let finished = false;
    while (!finished) {
      const last = seen.at(-1)?.offset ?? 0;
      const response = await owner.client.fetch(
        `/api/workstreams/${owner.workstreamId}/events?after=${last}`,
      );
      expect(response.status).toBe(200);
      const take = disconnects < 100 ? 1 + (next() % 4) : undefined;
      const read = await readSse(response, { limit: take });
      seen.push(...read.events);
      if (read.done) finished = true;
      else disconnects++;
    }
    expect(disconnects).toBeGreaterThanOrEqual(20);
    const offsets = seen.map((event) => event.offset ?? -1);
    for (let i = 1; i < offsets.length; i++) expect(offsets[i]).toBe((offsets[i - 1] ?? 0) + 1);
    const page = await history(owner);
    expect(textOf(seen)).toBe(messageText(page.messages.at(-1) ?? { parts: [] }));
    expect(statuses(seen).at(-1)).toBe("ready");
  });

  it("a client opening mid-turn sees the partial answer, then the rest live (Last-Event-ID)", async () => {
    const owner = await userWithWorkstream(server.url);
    const controller = new AbortController();
    const response = await send(owner, "[words:400] [slow:3] go", undefined, controller.signal);
    const early = await readSse(response, { limit: 6 });
    controller.abort();
    const state = await info(owner);
    expect(state.isRunning).toBe(true);
    const from = (state.activeTurn?.firstOffset ?? 1) - 1;
    const follower = await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/events`, {
      headers: { "last-event-id": String(from) },
    });
    const all = await readSse(follower);
    expect(all.done).toBe(true);
    expect(all.events.slice(0, early.events.length).map((event) => event.offset)).toEqual(
      early.events.map((event) => event.offset),
    );
    const page = await history(owner);
    expect(textOf(all.events)).toBe(messageText(page.messages.at(-1) ?? { parts: [] }));
  });
});

describe("one turn at a time (R8, W12)", () => {
  it("two concurrent sends: one runs, the other gets 409 conflict:turn_active with the turn id", async () => {
    const owner = await userWithWorkstream(server.url);
    const [a, b] = await Promise.all([
      send(owner, "[slow:5] first"),
      send(owner, "[slow:5] second"),
    ]);
    const statusesSeen = [a.status, b.status].sort();
    expect(statusesSeen).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    const winner = a.status === 200 ? a : b;
    const body = (await loser.json()) as { error: { code: string; turnId: string } };
    expect(body.error.code).toBe("conflict:turn_active");
    expect(body.error.turnId).toBe(winner.headers.get("x-turn-id"));
    await readSse(winner);
    const page = await history(owner);
    expect(page.messages.filter((message) => message.role === "user")).toHaveLength(1);
  });

  it("re-POSTing the message of a failed turn is Retry; a completed one is a duplicate", async () => {
    const owner = await userWithWorkstream(server.url);
    const failed = await readSse(await send(owner, "[fail] please", "m_retry"));
    expect(statuses(failed.events).at(-1)).toBe("error");
    expect(failed.events.some((event) => event.data.type === "error")).toBe(true);
    const retried = await send(owner, "[fail] please", "m_retry");
    expect(retried.status).toBe(200);
    await readSse(retried);
    const page = await history(owner);
    expect(page.messages.filter((message) => message.id === "m_retry")).toHaveLength(1);

    const ok = await readSse(await send(owner, "hello", "m_done"));
    expect(statuses(ok.events).at(-1)).toBe("ready");
    const duplicate = await owner.client.json<{ error: { code: string } }>(
      `/api/workstreams/${owner.workstreamId}/messages`,
      { method: "POST", json: userMessage("hello", "m_done") },
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe("conflict:duplicate_message");
  });
});

describe("W7 history paging", () => {
  it("pages 6 at a time by cursor, oldest page last", async () => {
    const owner = await userWithWorkstream(server.url);
    for (let i = 0; i < 5; i++) await readSse(await send(owner, `[echo] message ${i}`));
    const latest = await history(owner);
    expect(latest.messages).toHaveLength(6);
    expect(latest.hasMore).toBe(true);
    expect(messageText(latest.messages.at(-1) ?? { parts: [] })).toBe("message 4");
    const older = await history(owner, `?beforeMessageId=${latest.prevCursor}`);
    expect(older.messages).toHaveLength(4);
    expect(older.hasMore).toBe(false);
    expect(older.prevCursor).toBeNull();
    expect(messageText(older.messages[0] ?? { parts: [] })).toBe("[echo] message 0");
  });

  it("W7 a cursor is refused only for the workstream's owner: 401, then 404, then 400", async () => {
    const owner = await userWithWorkstream(server.url);
    const other = await userWithWorkstream(server.url, "Other Owner");
    await readSse(await send(owner, "[echo] mine"));
    await readSse(await send(other, "[echo] theirs"));
    const ownId = (await history(owner)).messages[0]?.id ?? "";
    const theirId = (await history(other)).messages[0]?.id ?? "";
    const page = (client: HttpClient, cursor: string) =>
      client
        .json<{ error?: { code?: string } }>(
          `/api/workstreams/${owner.workstreamId}/messages?beforeMessageId=${encodeURIComponent(cursor)}`,
        )
        .then((response) => [response.status, response.body.error?.code]);
    expect({
      unknown: await page(owner.client, "no-such-message"),
      anotherWorkstreams: await page(owner.client, theirId),
      strangerWithAGoodCursor: await page(other.client, ownId),
      strangerWithABadCursor: await page(other.client, "no-such-message"),
      signedOut: await page(new HttpClient(server.url), ownId),
    }).toEqual({
      unknown: [400, "bad_request:cursor"],
      anotherWorkstreams: [400, "bad_request:cursor"],
      strangerWithAGoodCursor: [404, "not_found:workstream"],
      strangerWithABadCursor: [404, "not_found:workstream"],
      signedOut: [401, "unauthorized:auth"],
    });
    // The owner's own cursor still pages, with each message's metadata as it was stored.
    await readSse(await send(owner, "[echo] again"));
    const latest = await history(owner, "?take=2");
    expect(latest.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(latest.messages[1]?.metadata).toMatchObject({ turnId: expect.any(String) });
    const older = await history(owner, `?take=2&beforeMessageId=${latest.prevCursor}`);
    expect(older.messages.map((message) => messageText(message))).toEqual(["[echo] mine", "mine"]);
    expect(older).toMatchObject({ hasMore: false, prevCursor: null });
  });
});

describe("bad input", () => {
  it("answers with a 4xx code and persists nothing", async () => {
    const owner = await userWithWorkstream(server.url);
    const stranger = await signUp(server.url, "Stranger");
    const path = `/api/workstreams/${owner.workstreamId}/messages`;
    const cases: Array<[string, RequestInit & { json?: unknown }, number, string]> = [
      [
        "malformed JSON",
        { method: "POST", body: "{nope", headers: { "content-type": "application/json" } },
        400,
        "bad_request:json",
      ],
      ["wrong shape", { method: "POST", json: { message: "hi" } }, 400, "bad_request:validation"],
      ["empty", { method: "POST", json: userMessage("   ") }, 400, "bad_request:empty_message"],
      [
        "oversized",
        { method: "POST", json: userMessage("x".repeat(32_001)) },
        413,
        "payload_too_large:message",
      ],
    ];
    for (const [, init, status, code] of cases) {
      const response = await owner.client.json<{ error: { code: string } }>(path, init);
      expect(response.status).toBe(status);
      expect(response.body.error.code).toBe(code);
    }
    const foreign = await stranger.client.json<{ error: { code: string } }>(path, {
      method: "POST",
      json: userMessage("hi"),
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found:workstream");
    const unknown = await owner.client.json<{ error: { code: string } }>(
      "/api/workstreams/nope/messages",
    );
    expect(unknown.status).toBe(404);
    const future = await owner.client.json<{ error: { code: string } }>(
      `/api/workstreams/${owner.workstreamId}/events?after=999999`,
    );
    expect(future.status).toBe(400);
    expect(future.body.error.code).toBe("bad_request:offset");
    expect((await history(owner)).messages).toHaveLength(0);
  });
});

describe("R2 a suspended turn", () => {
  it("holds the workstream (409) without a run, and Stop cancels it", async () => {
    const owner = await userWithWorkstream(server.url);
    await readSse(await send(owner, "[echo] before the approval", "m_before"));
    // A turn waiting for an approval: open, but no run, no busy flag and no lease.
    const db = await getDb();
    await db.insert(messages).values({
      workstreamId: owner.workstreamId,
      id: "m_waiting",
      role: "user",
      parts: [{ type: "text", text: "delete the staging database" }],
    });
    await db.insert(turns).values({
      id: "turn_suspended_1",
      workstreamId: owner.workstreamId,
      organizationId: owner.organizationId,
      userId: owner.userId,
      userMessageId: "m_waiting",
      assistantMessageId: "msg_waiting",
      state: "suspended",
    });
    const described = await info(owner);
    expect(described.isRunning).toBe(false);
    expect(described.activeTurn?.id).toBe("turn_suspended_1");

    const blocked = await owner.client.json<{ error: { code: string; turnId: string } }>(
      `/api/workstreams/${owner.workstreamId}/messages`,
      { method: "POST", json: userMessage("hello?") },
    );
    expect(blocked.status).toBe(409);
    expect(blocked.body.error).toMatchObject({
      code: "conflict:turn_active",
      turnId: "turn_suspended_1",
    });

    const stop = await owner.client.json<{ turnId: string; state: string }>(
      `/api/workstreams/${owner.workstreamId}/stop`,
      { method: "POST", json: {} },
    );
    expect(stop.body).toEqual({ turnId: "turn_suspended_1", state: "cancelled" });
    const log = await readSse(
      await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/events?after=0`),
    );
    expect(statuses(log.events).at(-1)).toBe("cancelled");
    const next = await send(owner, "[echo] after");
    expect(next.status).toBe(200);
    expect(statuses((await readSse(next)).events).at(-1)).toBe("ready");
  });
});

describe("S13 one stop reason", () => {
  async function turnRow(turnId: string) {
    const [row] = await (await getDb()).select().from(turns).where(eq(turns.id, turnId));
    return row;
  }

  it("S13 a local stop and a stop relayed from another process record the same reason", async () => {
    const reasons: Array<string | null | undefined> = [];
    for (const relayed of [false, true]) {
      const owner = await userWithWorkstream(server.url);
      const response = await send(owner, "[hang] keep going");
      const turnId = String(response.headers.get("x-turn-id"));
      const reading = readSse(response);
      await waitFor(async () => (await turnRow(turnId))?.state === "active");
      if (relayed) {
        // A server that does not run the turn records the request; the owner's lease loop
        // picks it up.
        await (await getDb())
          .update(turns)
          .set({ stopRequestedAt: new Date() })
          .where(eq(turns.id, turnId));
        await renewLeases();
      } else {
        const stop = await owner.client.json<{ state: string }>(
          `/api/workstreams/${owner.workstreamId}/stop`,
          { method: "POST", json: {} },
        );
        expect(stop.body.state).toBe("cancelled");
      }
      await waitFor(async () => (await turnRow(turnId))?.state === "cancelled");
      const { events } = await reading;
      const cancelledStatus = events.find(
        (event) =>
          event.data.type === "data-status" &&
          (event.data.data as { state: string }).state === "cancelled",
      );
      expect((cancelledStatus?.data.data as { reason?: string } | undefined)?.reason).toBe(
        ERROR_SENTENCES["turn:stopped"],
      );
      reasons.push((await turnRow(turnId))?.reason);
    }
    expect(reasons).toEqual([ERROR_SENTENCES["turn:stopped"], ERROR_SENTENCES["turn:stopped"]]);
  });

  it("S13 a pending turn stopped before the model starts ends cancelled without calling the model", async () => {
    const owner = await userWithWorkstream(server.url);
    let entered!: () => void;
    const inHook = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const unregister = registerHook({
      kind: "resolveAgent",
      name: "slow-agent-lookup",
      run: async ({ workstream, resolved }) => {
        if (workstream.id !== owner.workstreamId) return resolved;
        entered();
        await released;
        return resolved;
      },
    });
    try {
      const response = await send(owner, "never answered");
      const turnId = String(response.headers.get("x-turn-id"));
      const reading = readSse(response);
      await inHook;
      expect((await turnRow(turnId))?.state).toBe("pending");
      const stopping = owner.client.json<{ turnId: string; state: string }>(
        `/api/workstreams/${owner.workstreamId}/stop`,
        { method: "POST", json: {} },
      );
      await waitFor(async () => runRegistry.get(turnId)?.controller.signal.aborted === true);
      release();
      const stop = await stopping;
      expect(stop.body).toEqual({ turnId, state: "cancelled" });
      const { events } = await reading;
      expect(statuses(events).at(-1)).toBe("cancelled");
      // The model never started: no answer began, the turn never became active.
      expect(events.some((event) => event.data.type === "start")).toBe(false);
      const row = await turnRow(turnId);
      expect(row).toMatchObject({
        state: "cancelled",
        reason: ERROR_SENTENCES["turn:stopped"],
        startedAt: null,
      });
      expect((await history(owner)).messages.map((message) => message.role)).toEqual(["user"]);
      expect((await info(owner)).isRunning).toBe(false);
    } finally {
      release();
      unregister();
    }
  });
});

async function waitFor(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("condition not reached");
}
