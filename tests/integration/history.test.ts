// The history a turn is sent (read fresh by COMPOSE_REQUEST, lib/turns/message-store.ts): each
// turn is sent exactly the conversation as stored, whatever changed it in between (a turn, an
// edit, a removal, a message committed late into its place, a message relayed from another
// workstream, a compaction).
import type { ModelMessage } from "ai";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executePrepared } from "@/db/client";
import { type AppServer, startAppServer } from "../support/app-server";
import { type Owner, send, userWithWorkstream } from "../support/fixtures";
import { watchSentRequests } from "../support/sent-requests";
import { readSse, statuses } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

let testDb: TestDatabase;
let server: AppServer;
let owner: Owner;

beforeAll(async () => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  testDb = await useTestDatabase();
  server = await startAppServer();
  owner = await userWithWorkstream(server.url, "History Holder");
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

/** A model message as "role: text", its text parts joined (the history's text, in order). */
function modelLine(message: ModelMessage): string {
  const content =
    typeof message.content === "string"
      ? message.content
      : message.content
          .map((part) => ("text" in part && typeof part.text === "string" ? part.text : ""))
          .join("");
  return `${message.role}: ${content}`;
}

/** One turn: what the model was sent, minus the compaction summary, as lines. */
async function turn(text: string): Promise<{ lines: string[]; system: string[] }> {
  const requests = watchSentRequests();
  try {
    const events = await readSse(await send(owner, text));
    expect(statuses(events.events).at(-1)).toBe("ready");
  } finally {
    requests.stop();
  }
  const sent = requests.lastIn(owner.workstreamId)?.messages ?? [];
  return {
    lines: sent.filter((message) => message.role !== "system").map(modelLine),
    system: sent.filter((message) => message.role === "system").map(modelLine),
  };
}

type StoredRow = { id: string; role: string; parts: Array<{ type: string; text?: string }> };

/** The workstream's messages after its compaction point, oldest first, as lines. */
async function stored(): Promise<{ rows: StoredRow[]; lines: string[] }> {
  const rows = await executePrepared<StoredRow>(sql`
    select m."id", m."role", m."parts" from "messages" m join "workstreams" w on w."id" = m."workstream_id"
    where m."workstream_id" = ${owner.workstreamId} and m."seq" > coalesce((
      select a."seq" from "messages" a
      where a."workstream_id" = w."id" and a."id" = w."last_compacted_message_id"), 0)
    order by m."seq"`);
  const lines = rows.map(
    (row) =>
      `${row.role}: ${row.parts
        .filter((part) => part.type === "text")
        .map((part) => part.text ?? "")
        .join("")}`,
  );
  return { rows, lines };
}

/** The stored conversation before the turn, and the turn's own message: what it must be sent. */
async function expectSentAsStored(text: string): Promise<void> {
  const before = await stored();
  const sent = await turn(text);
  expect(sent.lines).toEqual([...before.lines, `user: ${text}`]);
}

describe("the history each turn is sent", () => {
  it("T5 each turn is sent the stored conversation", async () => {
    for (const text of ["the first question", "a second one", "and a third", "a fourth"]) {
      await expectSentAsStored(text);
    }
  });

  it("T5 an answer edited in the database since is sent as edited", async () => {
    const { rows } = await stored();
    const answer = rows.find((row) => row.role === "assistant");
    await executePrepared(sql`
      update "messages" set "parts" = ${JSON.stringify([{ type: "text", text: "an edited answer" }])}::jsonb
      where "workstream_id" = ${owner.workstreamId} and "id" = ${answer?.id ?? ""}`);
    await expectSentAsStored("after the edit");
    const { lines } = await stored();
    expect(lines).toContain("assistant: an edited answer");
  });

  it("T5 a removed message is no longer sent, and one committed late into its place is", async () => {
    const { rows } = await stored();
    const removed = rows[2];
    const [gap] = await executePrepared<{ seq: string }>(sql`
      delete from "messages" where "workstream_id" = ${owner.workstreamId} and "id" = ${removed?.id ?? ""}
      returning "seq"`);
    await expectSentAsStored("after the removal");
    expect((await stored()).rows.map((row) => row.id)).not.toContain(removed?.id);
    // A message whose position lies among the held ones (as one committed late by another server).
    await executePrepared(sql`
      insert into "messages" ("workstream_id", "id", "seq", "role", "parts")
      overriding system value
      values (${owner.workstreamId}, 'late-message', ${gap?.seq ?? 0}::bigint, 'assistant',
        ${JSON.stringify([{ type: "text", text: "a late message" }])}::jsonb)`);
    await expectSentAsStored("after the late one");
    expect((await stored()).lines).toContain("assistant: a late message");
  });

  it("T5 a message relayed from another workstream is sent with the next turn", async () => {
    await executePrepared(sql`
      insert into "messages" ("workstream_id", "id", "role", "parts")
      values (${owner.workstreamId}, 'relayed-message', 'assistant',
        ${JSON.stringify([{ type: "text", text: "a relayed note" }])}::jsonb)`);
    await expectSentAsStored("after the relay");
  });

  it("T5 after a compaction only the messages past its point are sent, with its summary", async () => {
    const { rows } = await stored();
    const point = rows[3];
    await executePrepared(sql`
      update "workstreams" set "last_compacted_message_id" = ${point?.id ?? ""},
        "compaction_summary" = 'what came before'
      where "id" = ${owner.workstreamId}`);
    const before = await stored();
    expect(before.rows.length).toBe(rows.length - 4);
    const sent = await turn("after the compaction");
    expect(sent.lines).toEqual([...before.lines, "user: after the compaction"]);
    expect(sent.system).toEqual(["system: Summary of the earlier conversation:\nwhat came before"]);
  });
});
