// Memories through real turns (offline chat model, offline embeddings unless a test says
// otherwise): who sees which memory in what the model receives, in the answers and in the recall
// tool; organization sharing waits for confirmation; retrieval ranking on a fixture (full text,
// vectors, and their fusion); the real embedding path against the fake OpenAI-compatible server;
// a failing retrieval is a warning and the turn completes without the section; bad input.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { memories } from "@/db/schema";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { offlineEmbedding } from "@/lib/memory/offline-embedding";
import { type RetrievedMemory, retrieveMemories } from "@/lib/memory/retrieve";
import {
  createMemory,
  deleteMemory,
  findSimilarMemory,
  getMemory,
  listMemories,
  reinforceMemory,
  updateMemory,
} from "@/lib/memory/store";
import type { ContextView } from "@/lib/state/schema";
import { wireDomains } from "@/root/wiring";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";
import { appHarness } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { type SentRequests, watchSentRequests } from "../support/sent-requests";
import { readSse, type SseEvent, statuses, textOf } from "../support/sse";
import { createGroup, joinOrganization, sendTo } from "./workstreams-support/helpers";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" }, wire: wireDomains });
let fake: FakeOpenAI;
let admin: SignedUpUser;
let memberA: SignedUpUser;
let memberB: SignedUpUser;
/** What the model was sent, by turn. */
let sent: SentRequests;
const cleanups: Array<() => void> = [];
const MODEL_ENV = [
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "OPENAI_MODEL",
  "OPENAI_EMBEDDING_MODEL",
  "OPENAI_EMBEDDING_DIMENSIONS",
];
const savedEnv = Object.fromEntries(MODEL_ENV.map((key) => [key, process.env[key]]));

beforeAll(async () => {
  fake = await startFakeOpenAI();
  admin = await app.signUp("Memory Admin");
  memberA = await app.signUp("Member Ada");
  memberB = await app.signUp("Member Bo");
  await joinOrganization(memberA, admin.organizationId, "member");
  await joinOrganization(memberB, admin.organizationId, "member");
  sent = watchSentRequests();
  cleanups.push(sent.stop);
});
afterEach(() => {
  for (const key of MODEL_ENV) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
  fake.embeddingLength = null;
  fake.embeddingFailure = null;
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await fake?.close();
});

type Turn = { events: SseEvent[]; text: string; turnId: string; instructions: string };

async function turn(user: SignedUpUser, workstreamId: string, message: string): Promise<Turn> {
  const response = await sendTo(user.client, workstreamId, message);
  expect(response.status).toBe(200);
  const { events, done } = await readSse(response);
  expect(done).toBe(true);
  expect(statuses(events).at(-1)).toBe("ready");
  const status = events.find((event) => event.data.type === "data-status");
  const turnId = String((status?.data.data as { turnId?: string } | undefined)?.turnId);
  return {
    events,
    text: textOf(events),
    turnId,
    instructions: sent.of(turnId)?.instructions ?? "",
  };
}

function toolOutput(events: SseEvent[]): Record<string, unknown> | undefined {
  return events.find((event) => event.data.type === "tool-output-available")?.data.output as
    | Record<string, unknown>
    | undefined;
}

function warnings(events: SseEvent[]) {
  return events
    .map((event) => event.data.data as { state?: string; code?: string; message?: string })
    .filter((data) => data?.state === "warning");
}

async function contextOf(user: SignedUpUser, workstreamId: string): Promise<ContextView> {
  const response = await user.client.json<ContextView>(`/api/workstreams/${workstreamId}/context`);
  expect(response.status).toBe(200);
  return response.body;
}

async function rowsWithText(text: string) {
  const db = await getDb();
  return db.select().from(memories).where(eq(memories.text, text));
}

/** A memory row of the member's own, inserted straight into the table. */
function memberMemory(user: { organizationId: string; userId: string }, id: string, text: string) {
  return {
    id,
    organizationId: user.organizationId,
    ownerId: user.userId,
    scope: "member" as const,
    text,
    normalizedText: text.toLowerCase(),
  };
}

describe("who sees which memory", () => {
  it("I14.1 I14.3 T7 T8 a member's memory reaches only that member's prompts and answers; an organization memory reaches both", async () => {
    const adaFirst = await createGroup(memberA.client, "Zephyr planning");
    const remembered = await turn(
      memberA,
      adaFirst.id,
      "remember that the Zephyr launch budget is 40k euros",
    );
    expect(toolOutput(remembered.events)).toMatchObject({
      remembered: true,
      scope: "member",
      text: "the Zephyr launch budget is 40k euros",
    });
    expect(remembered.text).toContain("I'll remember that");
    const [adaMemory] = await rowsWithText("the Zephyr launch budget is 40k euros");
    expect(adaMemory).toMatchObject({
      ownerId: memberA.userId,
      organizationId: admin.organizationId,
      scope: "member",
      sources: [{ turnId: remembered.turnId, messageId: expect.any(String) }],
    });
    expect(adaMemory?.embedding).toHaveLength(1536);

    const { memory: shared } = await createMemory({
      organizationId: admin.organizationId,
      ownerId: null,
      text: "The Zephyr office closes at 6 pm on Fridays",
    });

    // Bo asks about the very thing Ada's memory says: he sees the organization's memory only.
    const boGroup = await createGroup(memberB.client, "Bo's questions");
    const asked = await turn(memberB, boGroup.id, "What is the Zephyr launch budget?");
    expect(asked.instructions).not.toContain("40k");
    expect(asked.instructions).toContain("<retrieved-knowledge>");
    expect(asked.instructions).toContain("The Zephyr office closes at 6 pm on Fridays");
    expect(asked.text).not.toContain("40k");
    expect(asked.text).toContain("From what I remember");
    const boContext = await contextOf(memberB, boGroup.id);
    expect(boContext.lastTurn?.context.memoryIds?.retrieved).toEqual([shared.id]);
    expect(boContext.lastTurn?.memories?.map((memory) => memory.text)).toEqual([shared.text]);

    const recalled = await turn(memberB, boGroup.id, "recall the Zephyr budget");
    const found = toolOutput(recalled.events)?.memories as Array<{ text: string }>;
    expect(found.map((memory) => memory.text)).toEqual([shared.text]);
    expect(recalled.text).not.toContain("40k");

    // Ada's memory is hers in another workstream too: pre-seeded (it is important), and the
    // organization's memory retrieved.
    const adaSecond = await createGroup(memberA.client, "Zephyr follow-up");
    const again = await turn(memberA, adaSecond.id, "What is the Zephyr launch budget?");
    expect(again.instructions).toMatch(
      /<pre-seeded-memories>\n- the Zephyr launch budget is 40k euros\n<\/pre-seeded-memories>/,
    );
    expect(again.instructions).toContain("The Zephyr office closes at 6 pm on Fridays");
    expect(again.text).toContain("40k euros");
    const adaContext = await contextOf(memberA, adaSecond.id);
    expect(adaContext.lastTurn?.context.memoryIds).toEqual({
      top: [adaMemory?.id],
      retrieved: [shared.id],
    });
    // Another member's workstream context is not Bo's to read.
    const foreign = await memberB.client.json(`/api/workstreams/${adaSecond.id}/context`);
    expect(foreign.status).toBe(404);
  });

  it("I14.5 sharing with the organization is an approval: nothing is written until the member approves", async () => {
    const group = await createGroup(memberA.client, "Team facts");
    const response = await sendTo(
      memberA.client,
      group.id,
      "remember for the team that invoices go out on the first Monday",
    );
    const turnId = String(response.headers.get("x-turn-id"));
    const asked = await readSse(response);
    expect(statuses(asked.events).at(-1)).toBe("suspended");
    const request = asked.events.find((event) => event.data.type === "tool-approval-request");
    expect(await rowsWithText("invoices go out on the first Monday")).toEqual([]);
    const approved = await memberA.client.json<{ continued: boolean }>(
      `/api/workstreams/${group.id}/turns/${turnId}/approvals/${request?.data.approvalId}`,
      { method: "POST", json: { approved: true } },
    );
    expect(approved.body.continued).toBe(true);
    const after = Math.max(...asked.events.map((event) => event.offset ?? 0));
    const rest = await readSse(
      await memberA.client.fetch(`/api/workstreams/${group.id}/events?after=${after}`),
    );
    expect(statuses(rest.events).at(-1)).toBe("ready");
    expect(textOf(rest.events)).toContain("for the whole organization");
    const [row] = await rowsWithText("invoices go out on the first Monday");
    expect(row).toMatchObject({ scope: "organization", ownerId: null });
  });

  it("I14.1 the same fact said twice is one memory, more important, with both sources", async () => {
    const group = await createGroup(memberB.client, "Repeats");
    const first = await turn(memberB, group.id, "remember that Bo prefers morning meetings");
    const second = await turn(memberB, group.id, "remember that bo prefers morning meetings!");
    expect(toolOutput(second.events)).toMatchObject({ remembered: true, merged: true });
    const db = await getDb();
    const rows = await db
      .select()
      .from(memories)
      .where(and(eq(memories.ownerId, memberB.userId), eq(memories.scope, "member")));
    const morning = rows.filter((row) => row.normalizedText === "bo prefers morning meetings");
    expect(morning).toHaveLength(1);
    expect(morning[0]?.importance).toBe(8);
    expect(morning[0]?.sources.map((source) => source.turnId)).toEqual([
      first.turnId,
      second.turnId,
    ]);
  });
});

describe("the store", () => {
  it("I14.1 each call reaches only its owner's memories: a member's own, or the organization's", async () => {
    const org = admin.organizationId;
    const { memory: ada } = await createMemory({
      organizationId: org,
      ownerId: memberA.userId,
      text: "Ada reads the weekly digest on Sundays",
    });
    const { memory: team } = await createMemory({
      organizationId: org,
      ownerId: null,
      text: "The team digest goes out on Mondays",
    });
    const asAda = { organizationId: org, userId: memberA.userId };
    const asBo = { organizationId: org, userId: memberB.userId };
    const asAdmin = { organizationId: org, userId: null };
    expect((await getMemory({ owner: asAda, id: ada.id })).text).toBe(ada.text);
    for (const owner of [asBo, asAdmin]) {
      await expect(getMemory({ owner, id: ada.id })).rejects.toMatchObject({
        code: "not_found:memory",
      });
      await expect(updateMemory({ owner, id: ada.id, text: "changed" })).rejects.toMatchObject({
        code: "not_found:memory",
      });
      await expect(deleteMemory({ owner, id: ada.id })).rejects.toMatchObject({
        code: "not_found:memory",
      });
    }
    const adminList = (await listMemories({ owner: asAdmin })).memories.map((m) => m.id);
    expect(adminList).toContain(team.id);
    expect(adminList).not.toContain(ada.id);
    const adaList = (await listMemories({ owner: asAda })).memories.map((m) => m.id);
    expect(adaList).toContain(ada.id);
    expect(adaList).not.toContain(team.id);
    expect((await getMemory({ owner: asAda, id: ada.id })).text).toBe(ada.text);

    // An edit that would make two memories of one fact is refused; a real edit gets a new vector.
    const { memory: other } = await createMemory({
      organizationId: org,
      ownerId: memberA.userId,
      text: "Ada prefers short meetings",
    });
    await expect(
      updateMemory({ owner: asAda, id: other.id, text: "ada reads the weekly digest on sundays." }),
    ).rejects.toMatchObject({ code: "conflict:memory_exists" });
    const edited = await updateMemory({
      owner: asAda,
      id: other.id,
      text: "Ada prefers meetings under 20 minutes",
      importance: 9,
    });
    expect(edited).toMatchObject({ text: "Ada prefers meetings under 20 minutes", importance: 9 });
    const near = await findSimilarMemory({
      owner: asAda,
      embedding: offlineEmbedding("Ada prefers meetings under 20 minutes!"),
      minSimilarity: 0.92,
    });
    expect(near?.memory.id).toBe(other.id);
    await deleteMemory({ owner: asAda, id: other.id });
    await expect(getMemory({ owner: asAda, id: other.id })).rejects.toMatchObject({
      code: "not_found:memory",
    });
  });

  it("I14.1 reinforcing is idempotent per source: the same source twice raises importance once", async () => {
    const org = admin.organizationId;
    const source = { turnId: "turn_x", messageId: "msg_x" };
    const input = {
      organizationId: org,
      ownerId: memberB.userId,
      text: "Bo owns the release checklist",
      source,
    };
    const first = await createMemory(input);
    const again = await createMemory({ ...input, text: "Bo owns the release checklist." });
    expect(again).toMatchObject({ merged: true, memory: { id: first.memory.id, importance: 5 } });
    expect(again.memory.sources).toEqual([source]);
    const next = { turnId: "turn_y", messageId: "msg_y" };
    const reinforced = await reinforceMemory({
      id: first.memory.id,
      organizationId: org,
      source: next,
    });
    expect(reinforced).toMatchObject({ importance: 6, sources: [source, next] });
    const repeated = await reinforceMemory({
      id: first.memory.id,
      organizationId: org,
      source: next,
    });
    expect(repeated).toMatchObject({ importance: 6, sources: [source, next] });
  });
});

describe("bad input", () => {
  it("I14.5 a memory over 2,000 characters through the tool is an error the model sees, and nothing is written", async () => {
    const group = await createGroup(memberA.client, "Too long");
    const long = "x".repeat(2001);
    const response = await sendTo(
      memberA.client,
      group.id,
      `[tool:remember:${JSON.stringify({ text: long })}]`,
    );
    const { events } = await readSse(response);
    const types = events.map((event) => event.data.type);
    expect(types).not.toContain("tool-output-available");
    expect(
      types.some((type) => /^tool-(input|output)-error$/.test(type)),
      types.join(),
    ).toBe(true);
    expect(statuses(events).at(-1)).toBe("ready");
    expect(await rowsWithText(long)).toEqual([]);
    await expect(
      createMemory({ organizationId: admin.organizationId, ownerId: null, text: long }),
    ).rejects.toMatchObject({ code: "bad_request:too_long" });
  });

  it("I14.3 an empty or symbols-only query finds nothing and fails nothing", async () => {
    const reader = {
      organizationId: admin.organizationId,
      userId: memberA.userId,
      agentId: "chief",
    };
    for (const text of ["", "   ", "!!! & | <-> :* ' \\", "?!?!"]) {
      const result = await retrieveMemories({ reader, text });
      expect(result, JSON.stringify(text)).toEqual({ memories: [], failure: null });
    }
    const group = await createGroup(memberA.client, "Symbols");
    const recall = await turn(memberA, group.id, '[tool:recall:{"query":"&&& ||| !!!"}]');
    expect(toolOutput(recall.events)).toEqual({ query: "&&& ||| !!!", memories: [] });
    const plain = await turn(memberA, group.id, "?!?! :* <->");
    expect(warnings(plain.events)).toEqual([]);
    expect(plain.instructions).not.toContain("<retrieved-knowledge>");
  });
});

describe("retrieval ranking", () => {
  /** A member of an organization of their own, with the fixture's memories. */
  async function fixture(name: string) {
    const user = await app.signUp(name);
    const texts = {
      lighthouse: "The office is in the old lighthouse",
      kestrel:
        "The vendor review covers contracts, pricing tiers, renewal dates, support hours, " +
        "escalation paths, security questionnaires, onboarding checklists, data retention, audit " +
        "logs, billing contacts, regional hosting, the uptime record and the Kestrel integration",
      lisbonInvoices: "Invoices for the Lisbon office go out on Mondays",
      invoices: "Invoices go out on Fridays",
      rooftop: "The Lisbon team has a rooftop terrace",
      cyclist: "Marta is a keen cyclist",
      planning: "Quarterly planning starts in the second week of March",
    };
    const ids: Record<string, string> = {};
    for (const [key, text] of Object.entries(texts)) {
      const { memory } = await createMemory({
        organizationId: user.organizationId,
        ownerId: user.userId,
        text,
      });
      ids[key] = memory.id;
    }
    const reader = { organizationId: user.organizationId, userId: user.userId, agentId: "chief" };
    const names = Object.fromEntries(Object.entries(ids).map(([key, id]) => [id, key]));
    const keys = (list: RetrievedMemory[]) => list.map((memory) => names[memory.id]);
    return { reader, keys };
  }

  it("I14.3 full text ranks the memory matching most of the message first, and finds only matches", async () => {
    delete process.env.OPENAI_EMBEDDING_MODEL;
    const { reader, keys } = await fixture("Full Text Ranker");
    const { memories: found } = await retrieveMemories({
      reader,
      text: "When do the Lisbon invoices go out?",
    });
    expect(keys(found)[0]).toBe("lisbonInvoices");
    expect(keys(found).sort()).toEqual(["invoices", "lisbonInvoices", "rooftop"]);
  });

  it("I14.3 hundreds of memories sharing the message's common word do not crowd out the ones holding its rare words", async () => {
    delete process.env.OPENAI_EMBEDDING_MODEL;
    const user = await app.signUp("Common Words");
    const db = await getDb();
    const row = (id: string, text: string) => memberMemory(user, id, text);
    await db
      .insert(memories)
      .values(
        Array.from({ length: 700 }, (_, i) =>
          row(`common_${i}`, `Project status note ${i}: the project moved on`),
        ),
      );
    await db
      .insert(memories)
      .values([
        row("zebra_kickoff", "The Zebra project kickoff is on Monday"),
        row("zebra_logo", "Zebra stripes go on the new logo"),
      ]);
    // What autovacuum (Postgres) and the server's maintenance pass (PGlite) do after many inserts.
    await db.execute(sql`analyze "memories"`);
    const reader = { organizationId: user.organizationId, userId: user.userId, agentId: "chief" };

    const ids = async (text: string) =>
      (await retrieveMemories({ reader, text, limit: 20 })).memories.map((memory) => memory.id);
    // Each project note holds "project" twice; the rare words still decide.
    expect(await ids("When is the Zebra project kickoff?")).toEqual([
      "zebra_kickoff",
      "zebra_logo",
    ]);
    // A message of common words only still finds what holds them.
    const common = await ids("project status");
    expect(common).toHaveLength(20);
    expect(common.every((id) => id.startsWith("common_"))).toBe(true);
  });

  it("I14.3 a turn tells common words from rare ones by the statistics as they are now, after the memories are analyzed again", async () => {
    delete process.env.OPENAI_EMBEDDING_MODEL;
    const user = await app.signUp("Fresh Statistics");
    const group = await createGroup(user.client, "Harbor planning");
    const db = await getDb();
    const row = (id: string, text: string) => memberMemory(user, id, text);
    await db
      .insert(memories)
      .values([
        row("harbor_kickoff", "The Harbor review kickoff is on Monday"),
        row("harbor_logo", "Harbor blue goes on the new logo"),
      ]);
    await db.execute(sql`analyze "memories"`);
    const retrieved = async (text: string) => {
      await turn(user, group.id, text);
      return (await contextOf(user, group.id)).lastTurn?.context.memoryIds?.retrieved;
    };
    // A turn with the statistics of a table where "review" is rare: the process keeps them.
    expect(await retrieved("When is the Harbor review kickoff?")).toEqual([
      "harbor_kickoff",
      "harbor_logo",
    ]);
    await db
      .insert(memories)
      .values(
        Array.from({ length: 700 }, (_, i) =>
          row(`review_${i}`, `Review note ${i}: the review moved on`),
        ),
      );
    await db.execute(sql`analyze "memories"`);
    // Now "review" is common: it only ranks, and the notes holding it are no candidates.
    expect(await retrieved("When is the Harbor review kickoff?")).toEqual([
      "harbor_kickoff",
      "harbor_logo",
    ]);
  });

  it("I14.2 I14.3 hybrid: what full text misses vectors find and the other way round; fusion ranks both first", async () => {
    const { reader, keys } = await fixture("Hybrid Ranker");
    const fullTextOnly = async (text: string) => {
      delete process.env.OPENAI_EMBEDDING_MODEL;
      const result = await retrieveMemories({ reader, text });
      process.env.OPENAI_EMBEDDING_MODEL = "offline";
      return keys(result.memories);
    };
    // An empty full-text list leaves the vector ranking alone.
    const vectorsOnly = async (text: string) =>
      keys((await retrieveMemories({ reader, text, fullText: [] })).memories);
    const fused = async (text: string) => keys((await retrieveMemories({ reader, text })).memories);

    // "light house" shares no word with "lighthouse", but most of its letters.
    expect(await fullTextOnly("Where is the light house?")).toEqual([]);
    expect((await vectorsOnly("Where is the light house?"))[0]).toBe("lighthouse");
    expect((await fused("Where is the light house?"))[0]).toBe("lighthouse");

    // One rare word in a long memory: an exact match for full text, too faint for vectors.
    expect(await fullTextOnly("Kestrel")).toEqual(["kestrel"]);
    expect(await vectorsOnly("Kestrel")).not.toContain("kestrel");
    expect((await fused("Kestrel"))[0]).toBe("kestrel");

    // Both agree: fusion keeps the memory they both found first.
    expect((await fused("Who is our keen cyclist Marta?"))[0]).toBe("cyclist");
  });
});

describe("embeddings on an OpenAI-compatible server", () => {
  function switchToFakeServer() {
    Object.assign(process.env, {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODEL: "gpt-4.1-mini",
      OPENAI_EMBEDDING_MODEL: "text-embedding-3-small",
      OPENAI_EMBEDDING_DIMENSIONS: "1536",
    });
    fake.requests.length = 0;
    fake.embeddingRequests.length = 0;
    fake.fallbackPlan = { kind: "text", text: "Noted." };
  }

  const systemOf = () =>
    fake.requests
      .at(-1)
      ?.messages.filter((message) => message.role === "system")
      .map((message) => String(message.content))
      .join("\n") ?? "";

  it("I14.1 memories and queries are embedded by the server's model, and what it finds reaches the model", async () => {
    switchToFakeServer();
    const user = await app.signUp("Real Embeddings");
    await createMemory({
      organizationId: user.organizationId,
      ownerId: user.userId,
      text: "The office is in the old lighthouse",
    });
    expect(fake.embeddingRequests).toEqual([
      {
        model: "text-embedding-3-small",
        input: ["The office is in the old lighthouse"],
        dimensions: 1536,
      },
    ]);
    const group = await createGroup(user.client, "Directions");
    const asked = await turn(user, group.id, "Where is the light house?");
    expect(fake.embeddingRequests.at(-1)?.input).toEqual(["Where is the light house?"]);
    expect(warnings(asked.events)).toEqual([]);
    expect(systemOf()).toContain(
      "<retrieved-knowledge>\n- The office is in the old lighthouse\n</retrieved-knowledge>",
    );
  });

  it("I14.4 E8 an embedding of another length fails retrieval softly: a warning, and the turn completes without the section", async () => {
    switchToFakeServer();
    const user = await app.signUp("Short Vectors");
    await createMemory({
      organizationId: user.organizationId,
      ownerId: user.userId,
      text: "The office is in the old lighthouse",
    });
    const group = await createGroup(user.client, "Directions");
    fake.embeddingLength = 768;
    const asked = await turn(user, group.id, "Where is the old lighthouse office?");
    expect(warnings(asked.events)).toEqual([
      {
        state: "warning",
        code: "retrieval:failed",
        message: ERROR_SENTENCES["retrieval:failed"],
        turnId: asked.turnId,
      },
    ]);
    // The warning comes while the turn works, before its answer.
    const order = statuses(asked.events);
    expect(order.indexOf("warning")).toBeLessThan(order.indexOf("ready"));
    expect(asked.text).toBe("Noted.");
    expect(systemOf()).not.toContain("<retrieved-knowledge>");
    expect(systemOf()).not.toContain("lighthouse");

    // A server that fails outright is the same soft failure.
    fake.embeddingLength = null;
    fake.embeddingFailure = 500;
    const again = await turn(user, group.id, "And the lighthouse office hours?");
    expect(warnings(again.events).map((warning) => warning.code)).toEqual(["retrieval:failed"]);
    expect(systemOf()).not.toContain("<retrieved-knowledge>");
  });
});
