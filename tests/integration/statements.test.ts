// How much SQL one plain turn costs: every statement from the POST's arrival to the turn's close.
// Each stage reads through the folders that own its data, one query per read: a plain turn costs
// its session check, the opening transaction (8 statements), COMPOSE_REQUEST's reads (10), the
// event log's batches (one per 40 ms) and the closing transaction (6); none of it grows with the
// history, the memories, the skills or the attachments.
import { readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executePrepared } from "@/db/client";
import { createMemory } from "@/lib/memory/store";
import { createSkill } from "@/lib/skills/store";
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

/** The statements of one turn of `owner` sending `text`, once the log has committed them all. */
async function turnStatements(owner: Owner, text: string): Promise<string[]> {
  await flushEventLog();
  recording = [];
  const { events } = await readSse(await send(owner, text));
  expect(statuses(events).at(-1)).toBe("ready");
  await flushEventLog();
  const statements = recording;
  recording = null;
  return statements;
}

/** The event log's batch inserts: their number follows the answer's timing (one per 40 ms). */
function isEventBatch(statement: string): boolean {
  return /^\s*with activated as/.test(statement);
}

describe("the turn's hot path", () => {
  it("H2 a plain follow-up turn with one follower sends at most 31 SQL statements besides its event batches (each request reads its session and membership; each stage reads through its owners)", async () => {
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
    // The event batches are one per 40 ms of answer, so their number follows the machine's
    // pace, not the code: they are bounded on their own.
    const batches = statements.filter(isEventBatch);
    const rest = statements.filter((statement) => !isEventBatch(statement));
    // 31 when measured on both databases: 3 for each request's session and membership, then the
    // turn's own work (opening it, reading its context, closing it and queueing its post-turn
    // event) and the follower's read.
    expect(rest.length, kindsOf(rest).join("\n")).toBeLessThanOrEqual(31);
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.length).toBeLessThanOrEqual(8);
  });

  it("H2 a turn's statements do not grow with its history, memories, skills or attachments: 0 and 50 of each cost the same", async () => {
    // Without an embedding model: the nearest memories are one statement more once any memory
    // has a vector (counted in the test below), whatever their number.
    const embedding = process.env.OPENAI_EMBEDDING_MODEL;
    delete process.env.OPENAI_EMBEDDING_MODEL;
    try {
      const owner: Owner = await userWithWorkstream(server.url, "Guard Owner");
      // The same words once before: the process reads the memories' word statistics on its
      // first search with words (and keeps them), which is not the turn's cost.
      await readSse(await send(owner, "what about the lighthouse"));
      const before = (await turnStatements(owner, "what about the lighthouse")).filter(
        (statement) => !isEventBatch(statement),
      );
      for (let i = 0; i < 50; i++) {
        await createMemory({
          organizationId: owner.organizationId,
          ownerId: owner.userId,
          text: `The lighthouse keeper number ${i} logs the weather at dawn`,
          importance: i % 2 === 0 ? 9 : 3,
          embedding: null,
        });
        await createSkill({
          organizationId: owner.organizationId,
          ownerId: owner.userId,
          name: `Checklist ${i}`,
          whenToUse: `When the member asks for checklist ${i}`,
          steps: ["Open the list", "Tick each item"],
        });
        const fileId = `file_${crypto.randomUUID().replaceAll("-", "")}`;
        await executePrepared(sql`
          insert into "files" ("id", "organization_id", "workstream_id", "owner_id", "name",
            "media_type", "size", "sha256", "storage_key", "attached_at")
          values (${fileId}, ${owner.organizationId}, ${owner.workstreamId}, ${owner.userId},
            ${`notes-${i}.txt`}, 'text/plain', 12, 'x',
            ${`${owner.organizationId}/${owner.workstreamId}/${fileId}`}, now())`);
        const parts = [
          { type: "text", text: `Earlier note ${i}` },
          {
            type: "file",
            mediaType: "text/plain",
            filename: `notes-${i}.txt`,
            url: `file:${fileId}`,
          },
        ];
        await executePrepared(sql`
          insert into "messages" ("workstream_id", "id", "role", "parts", "token_count")
          values (${owner.workstreamId}, ${`m_guard_${i}`}, ${i % 2 === 0 ? "user" : "assistant"},
            ${JSON.stringify(parts)}::jsonb, 6)`);
      }
      const after = (await turnStatements(owner, "what about the lighthouse")).filter(
        (statement) => !isEventBatch(statement),
      );
      const context = await owner.client.json<{
        lastTurn: { context: { sections: Array<{ name: string; items: number; cut: number }> } };
      }>(`/api/workstreams/${owner.workstreamId}/context`);
      const section = (name: string) =>
        context.body.lastTurn.context.sections.find((entry) => entry.name === name);
      const items = (name: string) => section(name)?.items;
      // The turn did read them: 50 files (listed, or cut to the section's budget), the memories,
      // the history. (This server offers no skills section; their read is counted all the same.)
      const uploads = section("uploads");
      expect((uploads?.items ?? 0) + (uploads?.cut ?? 0)).toBe(50);
      expect(items("topMemories")).toBeGreaterThan(0);
      expect(items("history")).toBeGreaterThan(50);
      console.log(
        `a plain turn, 0 and 50 of each: ${before.length} and ${after.length} statements`,
      );
      expect(after.length).toBe(before.length);
    } finally {
      process.env.OPENAI_EMBEDDING_MODEL = embedding;
    }
  });

  it("H2 the turn's POST checks its session once, before the turn's opening transaction", async () => {
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
    const opening = statements.findIndex((statement) => statement.includes('insert into "turns"'));
    expect(statements.indexOf(sessionReads[0] ?? "")).toBeLessThan(opening);
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

  it("I14.4 memories cost the turn three statements (the top ones, whether any has a vector, the full-text matches), and with vectors one more: the nearest ones", async () => {
    const owner: Owner = await userWithWorkstream(server.url);
    await readSse(await send(owner, "hello there"));
    /** The turn's statements that read memories, by what they read. */
    const memoryReads = async (text: string) =>
      (await turnStatements(owner, text))
        .filter((statement) => statement.includes('"memories"'))
        .map((statement) => {
          if (statement.includes("<=>")) return "nearest";
          if (statement.includes("ts_rank")) return "full text";
          if (/"embedding" is not null/.test(statement)) return "any vectors";
          return "top";
        })
        .sort();
    const withoutVectors = ["any vectors", "full text", "top"];
    expect(await memoryReads("what about the lighthouse")).toEqual(withoutVectors);
    for (const text of ["The office is in the old lighthouse", "Invoices go out on Fridays"]) {
      await createMemory({ organizationId: owner.organizationId, ownerId: owner.userId, text });
    }
    // With vectors (tests embed with the offline model) the nearest ones are one statement more.
    expect(await memoryReads("what about the lighthouse")).toEqual([
      "any vectors",
      "full text",
      "nearest",
      "top",
    ]);
    delete process.env.OPENAI_EMBEDDING_MODEL;
    try {
      expect(await memoryReads("what about the lighthouse")).toEqual(withoutVectors);
    } finally {
      process.env.OPENAI_EMBEDDING_MODEL = "offline";
    }
  });

  it("T6 the files a turn's history carries are read by one query of the turn: re-signing them costs no more", async () => {
    const owner: Owner = await userWithWorkstream(server.url);
    const form = new FormData();
    form.append("file", new Blob([await readFile("tests/fixtures/files/photo.png")]), "photo.png");
    const uploaded = await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/files`, {
      method: "POST",
      body: form,
    });
    const file = (await uploaded.json()) as { id: string; mediaType: string };
    /** The statements that read the files table: the turn's own read ("turn") or another. */
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
        .map((statement) => (/"attached_at" is not null/.test(statement) ? "turn" : "own"));
    };
    const part = {
      type: "file",
      mediaType: file.mediaType,
      filename: "photo.png",
      url: `file:${file.id}`,
    };
    // The message that brings the file: the send route checks it is this workstream's, and the
    // turn reads it by id when the route has not marked it attached yet.
    const first = await fileReads([{ type: "text", text: "a picture" }, part]);
    expect(first.filter((read) => read === "turn")).toEqual(["turn"]);
    expect(first.length).toBeLessThanOrEqual(3);
    // A later turn signs it again from its one read of the workstream's files, and lists it.
    expect(await fileReads([{ type: "text", text: "and again" }])).toEqual(["turn"]);
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
    expect(statements.length).toBeLessThanOrEqual(32);
  });
});
