// The history a server holds between a workstream's turns (lib/turns/history-cache.ts), so that a
// turn reads only the messages added since the last: each turn is still sent exactly the
// conversation as stored, whatever changed it in between (a turn, an edit, a removal, a message
// committed late into the held range, a message relayed from another workstream, a compaction).
import type { ModelMessage } from "ai";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { executePrepared } from "@/db/client";
import { forgetHistory, heldHistory } from "@/lib/turns/history-cache";
import { type Owner, send } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { watchSentRequests } from "../support/sent-requests";
import { readSse, statuses } from "../support/sse";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" } });
let owner: Owner;

beforeAll(async () => {
  owner = await app.owner("History Holder");
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

describe("the history held between turns", () => {
  it("T5 each turn is sent the stored conversation, and the server holds it for the next", async () => {
    forgetHistory();
    for (const text of ["the first question", "a second one", "and a third"]) {
      await expectSentAsStored(text);
    }
    // What the third turn's opening read (the first two questions and their answers) is held.
    expect(heldHistory(owner.workstreamId).check.count).toBe(4);
    await expectSentAsStored("a fourth, read on top of what is held");
    expect(heldHistory(owner.workstreamId).check.count).toBe(6);
  });

  it("T5 a held conversation that did not change is not read again", async () => {
    const before = heldHistory(owner.workstreamId).messages;
    expect(before.length).toBeGreaterThan(0);
    await expectSentAsStored("is the first message read again?");
    // A message read again is a new object; the held ones are kept as they were.
    const after = heldHistory(owner.workstreamId).messages;
    expect(after.slice(0, before.length).map((held) => held.message)).toEqual(
      before.map((held) => held.message),
    );
    for (let i = 0; i < before.length; i++) expect(after[i]?.message).toBe(before[i]?.message);
    expect(after.length).toBe(before.length + 2);
  });

  it("T5 a held message cannot be changed in memory: the next turn is sent the stored text", async () => {
    const held = heldHistory(owner.workstreamId).messages[0]?.message;
    const part = held?.parts[0];
    if (!held || part?.type !== "text") throw new Error("expected a held text message");
    expect(() => {
      part.text = "changed in memory";
    }).toThrow(TypeError);
    expect(() => {
      (held.parts as unknown[]).push({ type: "text", text: "added in memory" });
    }).toThrow(TypeError);
    await expectSentAsStored("was anything changed in memory sent?");
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

  it("T5 a server holding nothing sends the same as one holding the history", async () => {
    forgetHistory(owner.workstreamId);
    await expectSentAsStored("read from nothing held");
    await expectSentAsStored("and held again");
  });
});
