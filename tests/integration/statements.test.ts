// How much SQL one plain turn costs: every statement from the POST's arrival to the turn's close.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemory } from "@/lib/memory/store";
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

/**
 * What each statement of a signed-in request reads: better-auth's session read (the session by
 * its token, then its user), the membership it acts in, then the route's own work.
 */
function kindsOf(statements: string[]): string[] {
  return statements.map((statement) => {
    if (/from "session"/.test(statement)) return "session";
    if (/from "user"/.test(statement)) return "user";
    if (/from "member"/.test(statement)) return "membership";
    return "work";
  });
}

describe("the turn's hot path", () => {
  it("H2 a plain follow-up turn with one follower sends at most 11 SQL statements", async () => {
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
    // The follower's session read (two statements) and membership are three of them.
    expect(statements.length).toBeLessThanOrEqual(11);
  });

  it("H2 the turn's POST checks its session inside its opening statement, not in one of its own", async () => {
    const owner: Owner = await userWithWorkstream(server.url);
    await readSse(await send(owner, "hello there"));
    await flushEventLog();
    recording = [];
    const { events } = await readSse(await send(owner, "and again"));
    expect(statuses(events).at(-1)).toBe("ready");
    await flushEventLog();
    const statements = recording;
    recording = null;
    const sessionReads = statements.filter((statement) => statement.includes('from "session"'));
    expect(sessionReads).toHaveLength(1);
    expect(sessionReads[0]).toContain('insert into "turns"');
  });

  it("H2 a follower's GET is the session read, the membership and one statement for the ownership and the first page", async () => {
    const owner: Owner = await userWithWorkstream(server.url);
    const done = await readSse(await send(owner, "hello there"));
    const lastOffset = Math.max(...done.events.map((event) => event.offset ?? 0));
    await flushEventLog();
    recording = [];
    const { events } = await readSse(
      await owner.client.fetch(
        `/api/workstreams/${owner.workstreamId}/events?after=${lastOffset - 3}`,
      ),
    );
    const statements = recording;
    recording = null;
    expect(events.map((event) => event.offset)).toEqual([
      lastOffset - 2,
      lastOffset - 1,
      lastOffset,
    ]);
    expect(kindsOf(statements)).toEqual(["session", "user", "membership", "work"]);
    expect(statements[3]).toContain('"turn_events"');
  });

  it("W7 a history page is the session read, the membership and one statement for the ownership, the cursor and the page, whatever its size", async () => {
    const owner: Owner = await userWithWorkstream(server.url);
    for (const text of ["one", "two", "three", "four"]) {
      await readSse(await send(owner, `[echo] ${text}`));
    }
    const page = async (query: string) => {
      recording = [];
      const response = await owner.client.json<{
        messages: Array<{ id: string }>;
        prevCursor: string | null;
      }>(`/api/workstreams/${owner.workstreamId}/messages${query}`);
      const statements = recording;
      recording = null;
      expect(response.status).toBe(200);
      return { body: response.body, statements };
    };
    const latest = await page("");
    const older = await page(`?beforeMessageId=${latest.body.prevCursor}`);
    expect([latest.body.messages.length, older.body.messages.length]).toEqual([6, 2]);
    for (const { statements } of [latest, older]) {
      expect(kindsOf(statements)).toEqual(["session", "user", "membership", "work"]);
      expect(statements[3]).toContain('"messages"');
    }
  });

  it("I14.4 memories cost the turn no statement of their own, and with vectors one: the nearest ones", async () => {
    const owner: Owner = await userWithWorkstream(server.url);
    await readSse(await send(owner, "hello there"));
    /** The turn's statements that read memories, as "opening" or "vectors". */
    const memoryReads = async (text: string) => {
      await flushEventLog();
      recording = [];
      const { events } = await readSse(await send(owner, text));
      expect(statuses(events).at(-1)).toBe("ready");
      await flushEventLog();
      const statements = recording;
      recording = null;
      return statements
        .filter((statement) => statement.includes('"memories"'))
        .map((statement) => (statement.includes(`insert into "turns"`) ? "opening" : "vectors"));
    };
    // Pre-seeded and full-text memories come with the opening statement.
    expect(await memoryReads("what about the lighthouse")).toEqual(["opening"]);
    for (const text of ["The office is in the old lighthouse", "Invoices go out on Fridays"]) {
      await createMemory({ organizationId: owner.organizationId, ownerId: owner.userId, text });
    }
    // With vectors (tests embed with the offline model) the nearest ones are one statement more.
    expect(await memoryReads("what about the lighthouse")).toEqual(["opening", "vectors"]);
    delete process.env.OPENAI_EMBEDDING_MODEL;
    try {
      expect(await memoryReads("what about the lighthouse")).toEqual(["opening"]);
    } finally {
      process.env.OPENAI_EMBEDDING_MODEL = "offline";
    }
  });

  it("T6 the files a turn's history carries are read by the opening statement: re-signing them costs no statement", async () => {
    const owner: Owner = await userWithWorkstream(server.url);
    const form = new FormData();
    form.append("file", new Blob([await readFile("tests/fixtures/files/photo.png")]), "photo.png");
    const uploaded = await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/files`, {
      method: "POST",
      body: form,
    });
    const file = (await uploaded.json()) as { id: string; mediaType: string };
    /** The turn's statements that read the files table, as "opening" or "own". */
    const fileReads = async (parts: unknown[]) => {
      await flushEventLog();
      recording = [];
      const response = await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/messages`, {
        method: "POST",
        json: { message: { id: `m_${crypto.randomUUID().slice(0, 12)}`, role: "user", parts } },
      });
      const { events } = await readSse(response);
      expect(statuses(events).at(-1)).toBe("ready");
      await flushEventLog();
      const statements = recording;
      recording = null;
      return statements
        .filter((statement) => /from "files"/.test(statement) && !/^\s*update/i.test(statement))
        .map((statement) => (/insert into "turns"/.test(statement) ? "opening" : "own"));
    };
    const part = {
      type: "file",
      mediaType: file.mediaType,
      filename: "photo.png",
      url: `file:${file.id}`,
    };
    // The message that brings the file: the send route checks it is this workstream's first.
    expect(await fileReads([{ type: "text", text: "a picture" }, part])).toEqual([
      "own",
      "opening",
    ]);
    // A later turn signs it again from what the opening statement read, and lists it.
    expect(await fileReads([{ type: "text", text: "and again" }])).toEqual(["opening"]);
    const context = await owner.client.json<{
      lastTurn: { context: { sections: Array<{ name: string; items: number }> } };
    }>(`/api/workstreams/${owner.workstreamId}/context`);
    const uploads = context.body.lastTurn.context.sections.find(
      (section) => section.name === "uploads",
    );
    expect(uploads?.items).toBe(1);
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
    // The follower's session read (two statements) and membership are three of them.
    expect(statements.length).toBeLessThanOrEqual(11);
  });
});
