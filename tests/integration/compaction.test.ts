// Compaction with a small window (WORKSTREAMS_CONTEXT_WINDOW): a workstream whose uncompacted
// history passes 70% of it is compacted by the context-compaction job (embedded runner here, and
// Inngest's test engine once), once; the next turn is sent the summary and stays within the
// window; the originals stay readable, owner only, paged by a cursor of the range; a second
// compaction folds the first summary in; a failed compaction leaves everything as it was and the
// flag cleared; a compaction whose process died is reaped; a message sent meanwhile waits for it.
import { InngestTestEngine } from "@inngest/test";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { compactions, jobEvents, jobs, messages, recentActivity, workstreams } from "@/db/schema";
import { inngestFunctions } from "@/inngest/engine";
import { COMPACTION_JOB_ID } from "@/inngest/functions/context-compaction";
import { compactWorkstream, type Summarize } from "@/lib/compaction/compact";
import { reapCompactions } from "@/lib/compaction/lease";
import { claimWorkstream, writeCompaction } from "@/lib/compaction/store";
import type { CompactionView } from "@/lib/compaction/view";
import { turnCompleted } from "@/lib/jobs/events";
import type { ContextView } from "@/lib/state/schema";
import type { HistoryPage } from "@/lib/turns/messages";
import { wireDomains } from "@/root/wiring";
import { type Owner, send } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { watchSentRequests } from "../support/sent-requests";
import { readSse, statuses } from "../support/sse";
import { LiveFollower, waitFor } from "./workstreams-support/helpers";

vi.hoisted(() => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  process.env.WORKSTREAMS_RATE_LIMIT_TURNS = "0";
  process.env.WORKSTREAMS_CONTEXT_WINDOW = "4400";
  process.env.WORKSTREAMS_COMPACTION_WAIT_MS = "20000";
});

// The agent's instructions and tool definitions alone take ~2,800 tokens: a window of 4,400 (a
// quarter kept for the answer) leaves room for the summary and the newest turns.
const WINDOW = 4400;
const RESERVED = WINDOW / 4;

const app = appHarness({ wire: wireDomains });
let alice: Owner;
let bob: Owner;
const followers: LiveFollower[] = [];

beforeAll(async () => {
  alice = await app.owner("Alice Compaction");
  bob = await app.owner("Bob Compaction");
});
afterAll(async () => {
  await Promise.all(followers.map((follower) => follower.close()));
});

const HARBOR = [
  "The lighthouse restoration needs a budget for the lantern room and the gallery railings.",
  "We decided to use copper flashing on the lantern room because it outlasts zinc.",
  "The harbor trust meets on Thursday to review the lighthouse masonry survey.",
  "Get three quotes for the lighthouse masonry and the lantern glazing.",
  "The gallery railings are corroded; there is a risk the inspector closes the gallery.",
  "We need to book scaffolding for the lighthouse tower before the storm season.",
  "The lantern glazing supplier needs drawings of the lantern room and the gallery.",
  "Ask the harbor trust whether the lighthouse cottage is part of the budget.",
  "The lighthouse masonry survey found cracks under the lantern gallery.",
  "The harbor trust wants the lighthouse finished before the regatta.",
];
const LEAGUE = [
  "Schedule the volleyball tournaments for the youth league across four weekends.",
  "We agreed to seed the tournaments by last season's league standings.",
  "The referees for the volleyball league need certificates renewed before the tournaments.",
  "Book the sports hall courts for the youth league finals in March.",
  "Parents want the volleyball tournaments to start later on Sundays.",
  "We still need to order trophies and medals for the youth league.",
  "Not sure whether the under-twelve volleyball teams play on the short courts.",
  "Send the league fixtures to every volleyball coach by Friday.",
  "The volleyball referees asked for a rota for the league tournaments.",
  "The youth league volleyball finals need a first-aid volunteer.",
];
const HARBOR_WORDS = ["lighthouse", "lantern", "harbor", "masonry", "gallery"];
const LEAGUE_WORDS = ["volleyball", "tournaments", "league", "referees", "trophies"];

async function compactionsOf(owner: Owner, workstreamId = owner.workstreamId) {
  const response = await owner.client.json<{ compactions: CompactionView[] }>(
    `/api/workstreams/${workstreamId}/compactions`,
  );
  expect(response.status).toBe(200);
  return response.body.compactions;
}

async function workstreamRow(workstreamId: string) {
  const db = await getDb();
  const [row] = await db.select().from(workstreams).where(eq(workstreams.id, workstreamId));
  return row;
}

/** One turn to its end: the member's line, answered with about 250 words. */
async function turn(owner: Owner, line: string, workstreamId = owner.workstreamId) {
  const response = await owner.client.fetch(`/api/workstreams/${workstreamId}/messages`, {
    method: "POST",
    json: {
      message: {
        id: `m_${crypto.randomUUID().slice(0, 12)}`,
        role: "user",
        parts: [{ type: "text", text: `[words:250] ${line}` }],
      },
    },
  });
  expect(response.status).toBe(200);
  const { events } = await readSse(response);
  expect(statuses(events).at(-1)).toBe("ready");
}

/** Turns with `lines` until the workstream has `count` compactions; returns them. */
async function turnsUntilCompacted(owner: Owner, lines: string[], count: number) {
  for (const line of lines) {
    await turn(owner, line);
    const done = await waitFor(
      async () => {
        const row = await workstreamRow(owner.workstreamId);
        const list = await compactionsOf(owner);
        // Settled: no compaction running, and the job (if one was queued) has run.
        if (row?.isCompacting) return undefined;
        const pending = await pendingJobs(owner.workstreamId);
        return pending ? undefined : list;
      },
      "settled compactions",
      20_000,
    );
    if (done.length >= count) return done;
  }
  throw new Error(`no compaction ${count} after ${lines.length} turns`);
}

async function pendingJobs(workstreamId: string): Promise<boolean> {
  const db = await getDb();
  const events = await db.select().from(jobEvents);
  const undelivered = events.some(
    (event) =>
      event.dispatchedAt === null &&
      (event.data as { workstreamId?: string }).workstreamId === workstreamId,
  );
  if (undelivered) return true;
  const queued = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.functionId, COMPACTION_JOB_ID), eq(jobs.concurrencyKey, workstreamId)));
  return queued.some((job) => job.state === "queued" || job.state === "running");
}

/** Messages written straight into a workstream (no turns, so no job is queued). */
async function seedHistory(workstreamId: string, lines: string[], tokens = 160) {
  const db = await getDb();
  const stamp = crypto.randomUUID().slice(0, 8);
  await db.insert(messages).values(
    lines.flatMap((line, index) => [
      {
        workstreamId,
        id: `seed_${stamp}_${index}_u`,
        role: "user" as const,
        parts: [{ type: "text", text: line }],
        tokenCount: tokens,
      },
      {
        workstreamId,
        id: `seed_${stamp}_${index}_a`,
        role: "assistant" as const,
        parts: [{ type: "text", text: `Noted: ${index + 1}.` }],
        tokenCount: tokens,
      },
    ]),
  );
}

async function groupOf(owner: Owner, title: string): Promise<string> {
  const response = await owner.client.json<{ id: string }>("/api/workstreams", {
    method: "POST",
    json: { mode: "group", title },
  });
  expect(response.status).toBe(201);
  return response.body.id;
}

function lowerIncludes(text: string, words: string[]): string[] {
  const lower = text.toLowerCase();
  return words.filter((word) => lower.includes(word));
}

describe("compaction", () => {
  let first: CompactionView;

  it("I15.1 T20 a workstream pushed past 70% of the window compacts once, keeping its newest turns", async () => {
    const follower = await LiveFollower.open(alice.client);
    followers.push(follower);
    const list = await turnsUntilCompacted(alice, HARBOR, 1);
    expect(list).toHaveLength(1);
    first = list[0] as CompactionView;
    expect(first.tokensBefore).toBeGreaterThan(WINDOW * 0.7);
    expect(first.tokensAfter).toBeLessThan(first.tokensBefore);
    expect(first.messageCount).toBeGreaterThanOrEqual(2);
    const row = await workstreamRow(alice.workstreamId);
    expect(row).toMatchObject({
      isCompacting: false,
      compactionToken: null,
      lastCompactedMessageId: first.lastMessageId,
      compactionSummary: first.summary,
    });
    // The owner's tabs saw it start and end, and were told a compaction landed.
    const flags = follower.events
      .filter(
        (event) =>
          event.type === "workstream" &&
          event.reason === "compacting" &&
          (event.workstream as { id: string }).id === alice.workstreamId,
      )
      .map((event) => (event.workstream as { isCompacting: boolean }).isCompacting);
    expect(flags).toEqual([true, false]);
    await follower.next((event) => event.type === "context" && event.reason === "compaction");
    // The real summary: this range's topics and decision, much shorter than the range.
    expect(lowerIncludes(first.summary, HARBOR_WORDS).length).toBeGreaterThanOrEqual(3);
    expect(first.summary).toContain("copper flashing");
    // What it changed in the state is recorded with it, and the state holds it.
    const decision = first.stateChanges.added.find((item) => item.list === "keyDecisions");
    expect(decision?.text).toContain("copper flashing");
    const view = await alice.client.json<ContextView>(
      `/api/workstreams/${alice.workstreamId}/context`,
    );
    expect(view.body.state.keyDecisions.map((item) => item.text)).toContain(decision?.text);
  });

  it("I15.1 T5 M3 the next turn is sent the summary as a system message and stays within the window", async () => {
    const requests = watchSentRequests();
    try {
      await turn(alice, "What is still open on the lighthouse?");
    } finally {
      requests.stop();
    }
    const sent = requests.lastIn(alice.workstreamId)?.messages ?? [];
    expect(sent[0]).toEqual({
      role: "system",
      content: `Summary of the earlier conversation:\n${first.summary}`,
    });
    const view = await alice.client.json<ContextView>(
      `/api/workstreams/${alice.workstreamId}/context`,
    );
    const context = view.body.lastTurn?.context;
    const summary = context?.sections.find((section) => section.name === "compactionSummary");
    expect(summary).toMatchObject({ items: 1 });
    expect(context?.total).toBeLessThanOrEqual(WINDOW - RESERVED);
  });

  it("I15.2 the originals stay readable, paged like history by a cursor of the range, owner only", async () => {
    const base = `/api/workstreams/${alice.workstreamId}/compactions/${first.id}/messages`;
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const query: string = cursor ? `?take=3&beforeMessageId=${cursor}` : "?take=3";
      const response = await alice.client.json<HistoryPage>(`${base}${query}`);
      expect(response.status).toBe(200);
      seen.unshift(...response.body.messages.map((message) => message.id));
      cursor = response.body.prevCursor;
      if (!response.body.hasMore) break;
    }
    expect(seen).toHaveLength(first.messageCount);
    expect(seen[0]).toBe(first.firstMessageId);
    expect(seen.at(-1)).toBe(first.lastMessageId);
    // The full history still has every message: nothing was deleted.
    const all = await alice.client.json<HistoryPage>(
      `/api/workstreams/${alice.workstreamId}/messages?take=100`,
    );
    expect(all.body.messages.map((message) => message.id)).toEqual(expect.arrayContaining(seen));

    // A cursor outside the range (a newer message of the same workstream) is refused.
    const newest = all.body.messages.at(-1)?.id ?? "";
    const outside = await alice.client.json<{ error: { code: string } }>(
      `${base}?beforeMessageId=${newest}`,
    );
    expect(outside.status).toBe(400);
    expect(outside.body.error.code).toBe("bad_request:range_cursor");
    const unknown = await alice.client.json<{ error: { code: string } }>(
      `${base}?beforeMessageId=nope`,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe("bad_request:range_cursor");
    // Someone else's compaction does not exist for bob, by his workstream or by alice's.
    const foreign = await bob.client.fetch(base);
    expect(foreign.status).toBe(404);
    const crossed = await bob.client.json<{ error: { code: string } }>(
      `/api/workstreams/${bob.workstreamId}/compactions/${first.id}/messages`,
    );
    expect(crossed.status).toBe(404);
    expect(crossed.body.error.code).toBe("not_found:compaction");
    expect(
      (await bob.client.fetch(`/api/workstreams/${alice.workstreamId}/compactions`)).status,
    ).toBe(404);
  });

  it("I15.2 T20 a second compaction folds the first summary in and starts where it ended", async () => {
    const list = await turnsUntilCompacted(alice, LEAGUE, 2);
    expect(list).toHaveLength(2);
    const second = list[1] as CompactionView;
    // Its range follows the first one's without a gap.
    const all = await alice.client.json<HistoryPage>(
      `/api/workstreams/${alice.workstreamId}/messages?take=100`,
    );
    const ids = all.body.messages.map((message) => message.id);
    expect(ids.indexOf(second.firstMessageId)).toBe(ids.indexOf(first.lastMessageId) + 1);
    // One summary: the first range's topics and decision are still in it, with the new ones.
    expect(lowerIncludes(second.summary, HARBOR_WORDS).length).toBeGreaterThanOrEqual(1);
    expect(second.summary).toContain("copper flashing");
    expect(
      lowerIncludes(second.summary, ["volleyball", "league", "tournaments"]).length,
    ).toBeGreaterThan(0);
    expect((await workstreamRow(alice.workstreamId))?.compactionSummary).toBe(second.summary);
  });

  it("I15.5 T20 two different long conversations are each summarized with their own words only", async () => {
    const league = await turnsUntilCompacted(bob, LEAGUE, 1);
    const summary = league[0]?.summary ?? "";
    expect(lowerIncludes(summary, LEAGUE_WORDS).length, summary).toBeGreaterThanOrEqual(3);
    expect(lowerIncludes(summary, HARBOR_WORDS), summary).toEqual([]);
    expect(lowerIncludes(first.summary, LEAGUE_WORDS), first.summary).toEqual([]);
    expect(summary).toContain("seed the tournaments");
  });

  it("I15.1 two compactions of one workstream at once write one", async () => {
    const id = await groupOf(alice, "Two at once");
    await seedHistory(id, HARBOR);
    const outcomes = await Promise.all([
      compactWorkstream({ workstreamId: id, turnId: "none" }),
      compactWorkstream({ workstreamId: id, turnId: "none" }),
    ]);
    expect(outcomes.filter((outcome) => outcome.compacted)).toHaveLength(1);
    expect(outcomes.find((outcome) => !outcome.compacted)).toMatchObject({
      reason: expect.stringMatching(/^(busy|not_due)$/u),
    });
    // Run again afterwards: the history is below the threshold now.
    expect(await compactWorkstream({ workstreamId: id, turnId: "none" })).toEqual({
      compacted: false,
      reason: "not_due",
    });
    expect(await compactionsOf(alice, id)).toHaveLength(1);
  });

  it("I15.1 J1 the job runs on Inngest's engine too: compacts when due, does nothing when not", async () => {
    const id = await groupOf(alice, "Inngest compaction");
    await seedHistory(id, LEAGUE);
    const fn = inngestFunctions().find((candidate) => candidate.opts.id === COMPACTION_JOB_ID);
    if (!fn) throw new Error("no context-compaction function");
    const row = await workstreamRow(id);
    const event = {
      id: crypto.randomUUID(),
      name: turnCompleted.name,
      ts: Date.now(),
      data: turnCompleted.schema.parse({
        turnId: "none",
        workstreamId: id,
        organizationId: row?.organizationId,
        userId: alice.userId,
        completed: true,
        untitled: false,
        compact: true,
      }),
    };
    const engine = new InngestTestEngine({ function: fn });
    const { result, error } = await engine.execute({ events: [event] });
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ compacted: true });
    const again = await new InngestTestEngine({ function: fn }).execute({
      events: [{ ...event, id: crypto.randomUUID() }],
    });
    expect(again.result).toEqual({ compacted: false, reason: "not_due" });
  });

  it("I15.1 a failed compaction leaves the history intact and the flag cleared", async () => {
    const id = await groupOf(alice, "Failing compaction");
    await seedHistory(id, HARBOR);
    const before = await workstreamRow(id);
    let flagged: boolean | undefined;
    const failing: Summarize = async () => {
      flagged = (await workstreamRow(id))?.isCompacting;
      throw new Error("the model is down");
    };
    await expect(
      compactWorkstream({ workstreamId: id, turnId: "none", summarize: failing }),
    ).rejects.toThrow("the model is down");
    expect(flagged).toBe(true);
    const after = await workstreamRow(id);
    expect(after).toMatchObject({
      isCompacting: false,
      compactionToken: null,
      compactionSummary: before?.compactionSummary ?? null,
      lastCompactedMessageId: before?.lastCompactedMessageId ?? null,
    });
    expect(await compactionsOf(alice, id)).toEqual([]);
    const db = await getDb();
    const kept = await db.select().from(messages).where(eq(messages.workstreamId, id));
    expect(kept).toHaveLength(HARBOR.length * 2);
    // The next attempt (the job's retry) compacts it.
    expect(await compactWorkstream({ workstreamId: id, turnId: "none" })).toMatchObject({
      compacted: true,
    });
  });

  it("I15.1 a compaction whose process died is reaped, and its late write is refused", async () => {
    const id = await groupOf(alice, "Dead compaction");
    await seedHistory(id, LEAGUE);
    const follower = await LiveFollower.open(alice.client);
    followers.push(follower);
    const token = crypto.randomUUID();
    expect(await claimWorkstream({ workstreamId: id, lastCompactedMessageId: null, token })).toBe(
      true,
    );
    // Its process died: nobody renews the lease, which lapses.
    const db = await getDb();
    await db
      .update(workstreams)
      .set({ compactionLeaseExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(workstreams.id, id));
    expect(await reapCompactions()).toContain(id);
    expect(await workstreamRow(id)).toMatchObject({ isCompacting: false, compactionToken: null });
    await follower.next(
      (event) =>
        event.type === "workstream" &&
        event.reason === "compacting" &&
        (event.workstream as { id: string; isCompacting: boolean }).id === id &&
        !(event.workstream as { isCompacting: boolean }).isCompacting,
    );
    // The dead compaction comes back to write: refused, nothing changes.
    const late = await writeCompaction({
      id: "cmp_late",
      claim: { workstreamId: id, token },
      organizationId: alice.organizationId,
      first: { id: "x", seq: 1 },
      last: { id: "y", seq: 2 },
      messageCount: 2,
      summary: "late",
      delta: {},
      tokensBefore: 1,
      tokensAfter: 1,
      model: "offline-1",
      durationMs: 1,
    });
    expect(late).toBeNull();
    expect(await db.select().from(compactions).where(eq(compactions.workstreamId, id))).toEqual([]);
  });

  it("I15.3 T1 a message sent while compacting waits for it, then is answered with the new summary", async () => {
    const id = await groupOf(alice, "Waiting message");
    await seedHistory(id, HARBOR);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const summarizing = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow: Summarize = async (input, options) => {
      started();
      await gate;
      const { summarizeRange } = await import("@/lib/compaction/summarize");
      return summarizeRange(input, options);
    };
    const compaction = compactWorkstream({ workstreamId: id, turnId: "none", summarize: slow });
    await summarizing;
    let answered = false;
    const sending = alice.client
      .fetch(`/api/workstreams/${id}/messages`, {
        method: "POST",
        json: {
          message: {
            id: `m_${crypto.randomUUID().slice(0, 12)}`,
            role: "user",
            parts: [{ type: "text", text: "Where are we with the lighthouse?" }],
          },
        },
      })
      .then(async (response) => {
        answered = true;
        return { status: response.status, sse: await readSse(response) };
      });
    // The message is held while the summary is written: no turn is open yet.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(answered).toBe(false);
    const description = await alice.client.json<{ isCompacting: boolean; activeTurn: unknown }>(
      `/api/workstreams/${id}`,
    );
    expect(description.body).toMatchObject({ isCompacting: true, activeTurn: null });
    release();
    expect(await compaction).toMatchObject({ compacted: true });
    const { status, sse } = await sending;
    expect(status).toBe(200);
    expect(statuses(sse.events).at(-1)).toBe("ready");
    const view = await alice.client.json<ContextView>(`/api/workstreams/${id}/context`);
    const summary = view.body.lastTurn?.context.sections.find(
      (section) => section.name === "compactionSummary",
    );
    expect(summary?.items).toBe(1);
  });

  it("I15.1 T20 a stopped or failed turn that kept a partial answer also checks: it queues only the compaction", async () => {
    const id = await groupOf(alice, "Partial answer");
    // Past the threshold: the turn that fails after some text still sees to it.
    await seedHistory(id, HARBOR.slice(0, 6), 230);
    const response = await send(
      { ...alice, workstreamId: id },
      "[fail-after-text] Lighthouse update please",
    );
    const { events } = await readSse(response);
    expect(statuses(events).at(-1)).toBe("error");
    const list = await waitFor(
      async () => {
        const found = await compactionsOf(alice, id);
        return found.length > 0 ? found : undefined;
      },
      "a compaction after a failed turn",
      20_000,
    );
    expect(list).toHaveLength(1);
    const db = await getDb();
    const queued = (await db.select().from(jobEvents)).filter(
      (event) => (event.data as { workstreamId?: string }).workstreamId === id,
    );
    expect(queued.map((event) => event.data)).toEqual([
      expect.objectContaining({ completed: false, compact: true, untitled: false }),
    ]);
    // Title and activity work follows completed turns only.
    expect(
      await db.select().from(recentActivity).where(eq(recentActivity.workstreamId, id)),
    ).toEqual([]);
  });

  it("I15 admins see how often and when a workstream was compacted, never the summaries", async () => {
    const response = await alice.client.json<{
      workstreams: Array<{ id: string; compactionCount: number; lastCompactedAt: string | null }>;
    }>("/api/admin/workstreams");
    expect(response.status).toBe(200);
    const entry = response.body.workstreams.find((item) => item.id === alice.workstreamId);
    expect(entry).toMatchObject({ compactionCount: 2, lastCompactedAt: expect.any(String) });
    const text = JSON.stringify(response.body);
    expect(text).not.toContain("copper flashing");
    expect(text).not.toContain("Topics:");
  });
});
