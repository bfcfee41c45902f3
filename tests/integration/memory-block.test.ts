// The memory block on the embedded job runner, through the app's routes and real turns (offline
// model): notes up to 15 fold into one summary and 5 notes, a rollup folds that summary again,
// notes are deleted by their owner only, search_history finds this workstream's earlier messages,
// and every change reaches the owner's live topic and not the organization's.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { jobEvents } from "@/db/schema";
import { memoryBlockFull } from "@/lib/jobs/events";
import { drainJobsOnce } from "@/lib/jobs/port";
import { addMemoryNote } from "@/lib/memory/block";
import type { ContextView } from "@/lib/state/schema";
import { wireDomains } from "@/root/wiring";
import { appHarness } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { readSse } from "../support/sse";
import {
  createGroup,
  isChange,
  joinOrganization,
  LiveFollower,
  sendTo,
  waitFor,
  waitIdle,
} from "./workstreams-support/helpers";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" }, wire: wireDomains });
let owner: SignedUpUser;
let member: SignedUpUser;
const open: LiveFollower[] = [];

beforeAll(async () => {
  owner = await app.signUp("Memory Owner");
  member = await app.signUp("Memory Member");
  await joinOrganization(member, owner.organizationId, "member");
});
afterAll(async () => {
  await Promise.all(open.map((follower) => follower.close()));
});

const ROLES = ["member", "researcher", "planner"];

/** Distinct notes on one subject, each with its own key word. */
function notesAbout(subject: string, words: string[]) {
  return words.map((word, index) => ({
    role: ROLES[index % ROLES.length] ?? "member",
    text: `The ${subject} ${word} needs attention before the review`,
  }));
}

async function note(user: SignedUpUser, workstreamId: string, role: string, text: string) {
  return addMemoryNote({
    workstreamId,
    // The member works in the owner's organization (joined above).
    organizationId: owner.organizationId,
    ownerId: user.userId,
    role,
    text,
  });
}

async function contextOf(user: SignedUpUser, workstreamId: string) {
  const response = await user.client.json<ContextView>(`/api/workstreams/${workstreamId}/context`);
  expect(response.status).toBe(200);
  return response.body.memoryBlock;
}

/** Hands queued events to the runner and waits until the block's summary folds `entries` notes. */
async function summaryFolding(user: SignedUpUser, workstreamId: string, entries: number) {
  await drainJobsOnce();
  return waitFor(async () => {
    const block = await contextOf(user, workstreamId);
    return block.summary?.entries === entries ? block : null;
  }, `a summary of ${entries} notes`);
}

async function pendingSummaryEvents(workstreamId: string) {
  const db = await getDb();
  const rows = await db.select().from(jobEvents).where(eq(jobEvents.name, memoryBlockFull.name));
  return rows.filter(
    (row) => (row.data as { workstreamId?: string }).workstreamId === workstreamId,
  );
}

describe("memory block", () => {
  it("I13.3 W10 fifteen notes (one through a turn) become one summary and the five newest notes; ten more roll the summary up into one", async () => {
    const group = await createGroup(member.client, "Lighthouse memory");
    const first = notesAbout("lighthouse", [
      "lantern",
      "granite",
      "foghorn",
      "keeper",
      "railings",
      "glazing",
      "compressor",
      "logbook",
      "mortar",
      "shutters",
      "beacon",
      "stairwell",
      "weathervane",
      "cistern",
    ]);
    for (const item of first) await note(member, group.id, item.role, item.text);
    expect(await pendingSummaryEvents(group.id)).toEqual([]);

    // The fifteenth through a turn: the agent's tool call writes it, labelled with the agent.
    const response = await sendTo(
      member.client,
      group.id,
      '[tool:add_memory_note:{"text":"The lighthouse drawbridge opens at dawn"}]',
    );
    const { events } = await readSse(response);
    const output = events.find((event) => event.data.type === "tool-output-available");
    expect(output?.data.output).toMatchObject({ noted: true, role: "chief" });
    await waitIdle(member.client, group.id);
    // The note's own statement queued exactly one summary job.
    expect(await pendingSummaryEvents(group.id)).toHaveLength(1);

    const folded = await summaryFolding(member, group.id, 10);
    const summary = folded.summary?.text ?? "";
    expect(folded.entries.map((entry) => entry.text)).toEqual([
      ...first.slice(10).map((item) => item.text),
      "The lighthouse drawbridge opens at dawn",
    ]);
    expect(folded.entries.at(-1)?.role).toBe("chief");
    for (const role of ROLES) expect(summary).toContain(`${role}:`);
    for (const word of ["lantern", "granite", "keeper", "mortar", "shutters"]) {
      expect(summary).toContain(word);
    }
    // Not yet folded: the five newest notes' words are in the notes, not the summary.
    expect(summary).not.toContain("drawbridge");
    expect(summary.length).toBeLessThan(
      first
        .slice(0, 10)
        .map((item) => item.text)
        .join(" ").length,
    );

    // Ten more: the block is at 15 again and the rollup folds the summary and the next ten.
    const more = notesAbout("harbor", [
      "pontoon",
      "slipway",
      "bollard",
      "buoy",
      "dredging",
      "crane",
      "ferry",
      "quay",
      "lockgate",
      "tugboat",
    ]);
    for (const item of more) await note(member, group.id, item.role, item.text);
    const rolled = await summaryFolding(member, group.id, 20);
    const rollup = rolled.summary?.text ?? "";
    expect(rolled.entries).toHaveLength(5);
    expect(rolled.entries.map((entry) => entry.text)).toEqual(more.slice(5).map((i) => i.text));
    // One summary that still holds the previous one's words, and the next ten notes'.
    for (const word of ["lantern", "granite", "keeper", "drawbridge", "pontoon", "buoy"]) {
      expect(rollup).toContain(word);
    }
    expect(rollup.match(/chief:/gu)).toHaveLength(1);
    expect(rollup.length).toBeLessThanOrEqual(500);
  });

  it("I13.5 W10 a plain request ('remember this: …') adds a note labelled with the turn's agent, with a timestamp", async () => {
    const group = await createGroup(member.client, "Plain note");
    await readSse(
      await sendTo(member.client, group.id, "remember this: the client prefers Friday demos"),
    );
    await waitIdle(member.client, group.id);
    const [entry] = (await contextOf(member, group.id)).entries;
    expect(entry).toMatchObject({ role: "chief", text: "the client prefers Friday demos" });
    expect(Date.parse(entry?.createdAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
  });

  it("I13.3 W10 a note over 500 characters through a turn is a tool error the model sees, and nothing is written", async () => {
    const group = await createGroup(member.client, "Too long");
    const response = await sendTo(
      member.client,
      group.id,
      `[tool:add_memory_note:{"text":"${"long ".repeat(101)}"}]`,
    );
    const { events } = await readSse(response);
    await waitIdle(member.client, group.id);
    const types = events.map((event) => event.data.type);
    expect(types).not.toContain("tool-output-available");
    expect(
      types.some((type) => /^tool-(input|output)-error$/.test(type)),
      types.join(),
    ).toBe(true);
    expect((await contextOf(member, group.id)).entries).toEqual([]);
  });

  it("I13.6 W10 DELETE memory-block/:entryId: the owner's note is deleted (200), another member gets 404, an unknown note 404", async () => {
    const group = await createGroup(member.client, "Deletions");
    const { entry } = await note(member, group.id, "member", "Keep the quarterly numbers");
    const path = `/api/workstreams/${group.id}/memory-block/${entry.id}`;

    const stranger = await owner.client.json<{ error: { code: string } }>(path, {
      method: "DELETE",
    });
    expect([stranger.status, stranger.body.error.code]).toEqual([404, "not_found:workstream"]);
    expect((await contextOf(member, group.id)).entries).toHaveLength(1);

    const deleted = await member.client.json(path, { method: "DELETE" });
    expect([deleted.status, deleted.body]).toEqual([200, { deleted: true }]);
    expect((await contextOf(member, group.id)).entries).toEqual([]);

    const again = await member.client.json<{ error: { code: string } }>(path, {
      method: "DELETE",
    });
    expect([again.status, again.body.error.code]).toEqual([404, "not_found:memory_entry"]);
    // Another workstream's note is not this workstream's.
    const other = await createGroup(member.client, "Other");
    const { entry: elsewhere } = await note(member, other.id, "member", "Elsewhere");
    const wrong = await member.client.json<{ error: { code: string } }>(
      `/api/workstreams/${group.id}/memory-block/${elsewhere.id}`,
      { method: "DELETE" },
    );
    expect([wrong.status, wrong.body.error.code]).toEqual([404, "not_found:memory_entry"]);
    expect((await contextOf(member, other.id)).entries).toHaveLength(1);
  });

  it("I13.5 W10 search_history through a turn finds this workstream's earlier message by a word, and not another workstream's", async () => {
    const group = await createGroup(member.client, "Search here");
    const elsewhere = await createGroup(member.client, "Search elsewhere");
    await readSse(
      await sendTo(member.client, group.id, "[echo] The bakery needs a sourdough kiln"),
    );
    await waitIdle(member.client, group.id);
    await readSse(await sendTo(member.client, group.id, "[echo] Unrelated volleyball schedule"));
    await waitIdle(member.client, group.id);
    await readSse(await sendTo(member.client, elsewhere.id, "[echo] Another sourdough kiln"));
    await waitIdle(member.client, elsewhere.id);
    const messageIds = async (id: string) =>
      (
        await member.client.json<{ messages: { id: string; parts: { text?: string }[] }[] }>(
          `/api/workstreams/${id}/messages`,
        )
      ).body.messages;
    const earlier = (await messageIds(group.id)).find((message) =>
      message.parts.some((part) => part.text?.includes("The bakery needs")),
    );
    expect(earlier).toBeDefined();

    const response = await sendTo(
      member.client,
      group.id,
      '[tool:search_history:{"query":"kilns"}]',
    );
    const { events } = await readSse(response);
    const output = events.find((event) => event.data.type === "tool-output-available")?.data
      .output as { results: { messageId: string; role: string; snippet: string; at: string }[] };
    await waitIdle(member.client, group.id);
    const found = output.results.map((result) => result.messageId);
    expect(found).toContain(earlier?.id);
    const match = output.results.find((result) => result.messageId === earlier?.id);
    expect(match?.snippet).toMatch(/kiln/);
    expect(match?.role).toBe("user");
    const foreign = (await messageIds(elsewhere.id)).map((message) => message.id);
    expect(found.filter((id) => foreign.includes(id))).toEqual([]);
    expect(output.results.some((result) => result.snippet.includes("volleyball"))).toBe(false);
    // The asking message matches its own words, but it is not something said before.
    expect(output.results.every((result) => !result.snippet.includes("search_history"))).toBe(true);
  });

  it("I13.6 W10 a note reaches the owner's live topic as a context change, and never the organization's", async () => {
    const orgTab = await LiveFollower.open(owner.client, "?scope=organization");
    const memberTab = await LiveFollower.open(member.client);
    open.push(orgTab, memberTab);
    const group = await createGroup(member.client, "Live notes");
    await readSse(
      await sendTo(member.client, group.id, '[tool:add_memory_note:{"text":"Zq9 private note"}]'),
    );
    await waitIdle(member.client, group.id);
    const heard = await memberTab.next(
      (event) => event.type === "context" && event.workstreamId === group.id,
    );
    expect(heard).toEqual({ type: "context", workstreamId: group.id, reason: "memory_block" });
    // The turn's end reaches the organization after the note did (if it had): wait for it.
    await waitFor(
      async () => orgTab.events.filter(isChange("running", group.id)).length >= 2,
      "the turn's end on the organization topic",
    );
    expect(orgTab.events.map((event) => event.type)).not.toContain("context");
    expect(JSON.stringify(orgTab.events)).not.toContain("Zq9");
  });
});
