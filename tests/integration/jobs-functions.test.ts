// The post-turn functions run through Inngest's own test engine (@inngest/test): the Inngest
// function built from each declaration, its steps executed in process against the database.
// Conversations come from real turns on the app server (offline model).
import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { recentActivity, turns, workstreams } from "@/db/schema";
import { inngestFunctions } from "@/inngest/engine";
import { recentActivity as recentActivityJob } from "@/inngest/functions/recent-activity";
import { titleGeneration } from "@/inngest/functions/title-generation";
import { turnCompleted } from "@/lib/jobs/events";
import { appHarness } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { readSse } from "../support/sse";
import { createGroup, sendTo, waitIdle } from "./workstreams-support/helpers";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" } });
let member: SignedUpUser;

beforeAll(async () => {
  member = await app.signUp("Jobs Member");
});

function engineFor(id: string) {
  const fn = inngestFunctions().find((candidate) => candidate.opts.id === id);
  if (!fn) throw new Error(`no function ${id}`);
  return new InngestTestEngine({ function: fn });
}

/** A group workstream with one completed turn; the event that turn would send. */
async function conversation(text: string, title?: string) {
  const group = await createGroup(member.client, title);
  await readSse(await sendTo(member.client, group.id, text));
  await waitIdle(member.client, group.id);
  const db = await getDb();
  const [row] = await db.select().from(workstreams).where(eq(workstreams.id, group.id));
  const data = turnCompleted.schema.parse({
    turnId: "unknown",
    workstreamId: group.id,
    organizationId: row?.organizationId,
    userId: member.userId,
    completed: true,
    untitled: true,
    compact: false,
  });
  const event = { id: crypto.randomUUID(), name: turnCompleted.name, data, ts: Date.now() };
  return { id: group.id, event };
}

async function titleOf(id: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(workstreams).where(eq(workstreams.id, id));
  return row?.title;
}

describe("title generation", () => {
  it("T21 names three conversations each after its own salient words and none of the others'", async () => {
    const conversations = [
      {
        text: "Draft the lighthouse restoration budget for the harbor trust",
        words: ["lighthouse", "restoration", "budget"],
      },
      {
        text: "Schedule quarterly volleyball tournaments for the youth league",
        words: ["volleyball", "tournaments", "league"],
      },
      {
        text: "Compare sourdough fermentation timings across bakery ovens",
        words: ["sourdough", "fermentation", "bakery"],
      },
    ];
    const titles: string[] = [];
    for (const item of conversations) {
      const { id, event } = await conversation(item.text);
      const { result } = await engineFor(titleGeneration.id).execute({ events: [event] });
      expect(result).toEqual({ titled: true });
      const title = (await titleOf(id)) ?? "";
      expect(title.split(" ").length).toBeLessThanOrEqual(6);
      titles.push(title.toLowerCase());
    }
    conversations.forEach((item, index) => {
      const own = titles[index] ?? "";
      expect(
        item.words.some((word) => own.includes(word)),
        own,
      ).toBe(true);
      const others = conversations.filter((_, other) => other !== index).flatMap((o) => o.words);
      expect(
        others.filter((word) => own.includes(word)),
        own,
      ).toEqual([]);
    });
  });

  it("T21 a rename between proposing and writing wins", async () => {
    const { id, event } = await conversation("Organize the archive migration checklist");
    const db = await getDb();
    const engine = engineFor(titleGeneration.id).clone({
      steps: [
        {
          id: "propose-title",
          handler: async () => {
            // The member renames the workstream while the title is being generated.
            await db
              .update(workstreams)
              .set({ title: "My own name" })
              .where(eq(workstreams.id, id));
            return "Archive Migration Checklist";
          },
        },
      ],
    });
    const { result } = await engine.execute({ events: [event] });
    expect(result).toEqual({ titled: false });
    expect(await titleOf(id)).toBe("My own name");
  });

  it("T21 direct, core and already-named workstreams are never retitled", async () => {
    const named = await conversation("Sketch the garden irrigation plan", "Garden plan");
    const direct = await member.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "direct", agentId: "chief" },
    });
    await readSse(await sendTo(member.client, direct.body.id, "Sketch the garden irrigation plan"));
    await waitIdle(member.client, direct.body.id);
    const targets = [named.id, direct.body.id];
    expect(targets.length).toBe(2);
    for (const id of targets) {
      const before = await titleOf(id);
      const event = {
        ...named.event,
        id: crypto.randomUUID(),
        data: { ...named.event.data, workstreamId: id },
      };
      const { result } = await engineFor(titleGeneration.id).execute({ events: [event] });
      expect(result).toEqual({ titled: false });
      expect(await titleOf(id)).toBe(before);
    }
  });

  it("T21 a job whose workstream was deleted meanwhile ends quietly", async () => {
    const { id, event } = await conversation("Review the ferry timetable changes");
    const db = await getDb();
    await db.delete(workstreams).where(eq(workstreams.id, id));
    const { result, error } = await engineFor(titleGeneration.id).execute({ events: [event] });
    expect(error).toBeUndefined();
    expect(result).toEqual({ titled: false });
  });

  it("J5 a malformed event is refused by its schema and writes nothing", async () => {
    const { id, event } = await conversation("Plan the museum lighting retrofit");
    const bad = { ...event, data: { ...event.data, untitled: "yes", extra: "\u0000" } };
    const { error } = await engineFor(titleGeneration.id).execute({ events: [bad] });
    expect(error).toBeDefined();
    expect(await titleOf(id)).toBe("New Workstream");
  });
});

describe("recent activity", () => {
  /** The post-turn event of one of the member's completed turns in `workstreamId`. */
  async function completedEvent(workstreamId: string, turnId: string) {
    const db = await getDb();
    const [row] = await db.select().from(workstreams).where(eq(workstreams.id, workstreamId));
    return {
      id: crypto.randomUUID(),
      name: turnCompleted.name,
      ts: Date.now(),
      data: {
        turnId,
        workstreamId,
        organizationId: row?.organizationId ?? "",
        userId: member.userId,
        completed: true,
        untitled: false,
        compact: false,
      },
    };
  }

  it("T23 writes a generated line for the turn, not the member's words", async () => {
    const text = "[echo] Estimate the orchard irrigation costs";
    const group = await createGroup(member.client, "Orchard");
    await readSse(await sendTo(member.client, group.id, text));
    await waitIdle(member.client, group.id);
    const db = await getDb();
    const [turn] = await db.select().from(turns).where(eq(turns.workstreamId, group.id));
    const event = await completedEvent(group.id, turn?.id ?? "");
    const { result } = await engineFor(recentActivityJob.id).execute({ events: [event] });
    expect(result).toEqual({ written: true });
    const [entry] = await db
      .select()
      .from(recentActivity)
      .where(eq(recentActivity.workstreamId, group.id));
    expect(entry?.summary).toMatch(/orchard/i);
    expect(entry?.summary).not.toContain("[");
    expect(entry?.summary).not.toBe(text.replace("[echo] ", ""));
  });

  it("T23 a turn whose workstream completed a later turn since gets no line: only the newest turn's is shown", async () => {
    const group = await createGroup(member.client, "Greenhouse");
    for (const text of ["Price the greenhouse glazing", "Now compare polycarbonate panels"]) {
      await readSse(await sendTo(member.client, group.id, text));
      await waitIdle(member.client, group.id);
    }
    const db = await getDb();
    const ended = await db
      .select()
      .from(turns)
      .where(eq(turns.workstreamId, group.id))
      .orderBy(turns.createdAt);
    const older = await engineFor(recentActivityJob.id).execute({
      events: [await completedEvent(group.id, ended[0]?.id ?? "")],
    });
    expect(older.result).toEqual({ written: false });
    const newer = await engineFor(recentActivityJob.id).execute({
      events: [await completedEvent(group.id, ended[1]?.id ?? "")],
    });
    expect(newer.result).toEqual({ written: true });
    const [entry] = await db
      .select()
      .from(recentActivity)
      .where(eq(recentActivity.workstreamId, group.id));
    expect(entry?.turnId).toBe(ended[1]?.id);
  });
});
