// The memory and skill jobs through real turns on the embedded engine (offline model, offline
// embeddings): an onboarding turn's facts become the member's memories at once, each with its
// source; what the offline extraction finds depends on the conversation; a procedure becomes the
// member's skill, offered to their agents and used through use_skill; nothing of a member's
// reaches another member's prompt or any admin payload until the member shares it, with
// confirmation; bad input is refused with a code and changes nothing.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { memories, skills } from "@/db/schema";
import { drainJobsOnce } from "@/lib/jobs/port";
import { wireDomains } from "@/root/wiring";
import { appHarness } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { countRows } from "../support/row-counts";
import { type SentRequests, watchSentRequests } from "../support/sent-requests";
import { readSse, type SseEvent, statuses, textOf } from "../support/sse";
import { createGroup, joinOrganization, sendTo, waitFor } from "./workstreams-support/helpers";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" }, wire: wireDomains });
let admin: SignedUpUser;
/** What the model was sent, by turn. */
let sent: SentRequests;
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  admin = await app.signUp("Memory Jobs Admin");
  sent = watchSentRequests();
  cleanups.push(sent.stop);
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A member of the admin's organization, onboarding (as the app's first page load leaves them). */
async function onboardingMember(name: string): Promise<SignedUpUser> {
  const user = await app.signUp(name);
  await joinOrganization(user, admin.organizationId, "member");
  const started = await user.client.json<{ state: string }>("/api/onboarding", { method: "POST" });
  expect(started.body.state).toBe("onboarding");
  return user;
}

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

async function chiefOf(user: SignedUpUser): Promise<string> {
  const created = await user.client.json<{ id: string }>("/api/workstreams", {
    method: "POST",
    json: { mode: "direct", agentId: "chief" },
  });
  return created.body.id;
}

type OwnMemory = { id: string; text: string; importance: number; sourceCount: number };

async function ownMemories(user: SignedUpUser, query = ""): Promise<OwnMemory[]> {
  const response = await user.client.json<{ memories: OwnMemory[] }>(`/api/memories${query}`);
  expect(response.status).toBe(200);
  return response.body.memories;
}

/** Hands the queued post-turn events over and waits until `probe` holds. */
async function afterJobs<T>(probe: () => Promise<T | null | undefined | false>, what: string) {
  await drainJobsOnce();
  return waitFor(probe, what);
}

const CONVERSATIONS = [
  {
    name: "Lighthouse Member",
    text: "I coordinate the lighthouse restoration for the harbor trust. My budget for the lantern glazing is twelve thousand euros. Can you draft a schedule?",
    words: ["lighthouse", "restoration", "lantern", "glazing"],
  },
  {
    name: "Volleyball Member",
    text: "I coach the youth volleyball league on Saturdays. We always travel to tournaments by train. What drills would you suggest?",
    words: ["volleyball", "league", "tournaments", "train"],
  },
  {
    name: "Bakery Member",
    text: "I run a sourdough bakery in Porto. My ovens are wood fired and I prefer long fermentation. How should I plan the week?",
    words: ["sourdough", "bakery", "fermentation", "ovens"],
  },
];

describe("post-chat-memory", () => {
  it("I14.6 T19 an onboarding turn's facts become the member's memories at once, each from its message; three conversations give facts of their own words and none of the others'", async () => {
    const members = await Promise.all(CONVERSATIONS.map((item) => onboardingMember(item.name)));
    const turns: Turn[] = [];
    for (const [index, item] of CONVERSATIONS.entries()) {
      const user = members[index] as SignedUpUser;
      turns.push(await turn(user, await chiefOf(user), item.text));
    }
    for (const [index, item] of CONVERSATIONS.entries()) {
      const user = members[index] as SignedUpUser;
      const facts = await afterJobs(async () => {
        const list = await ownMemories(user);
        return list.length >= 2 ? list : null;
      }, `${item.name}'s memories`);
      const texts = facts.map((fact) => fact.text.toLowerCase());
      // The member's statements, not their question.
      expect(texts.some((text) => text.includes("?"))).toBe(false);
      expect(item.words.some((word) => texts.join(" ").includes(word))).toBe(true);
      const others = CONVERSATIONS.filter((_, other) => other !== index).flatMap((o) => o.words);
      expect(others.filter((word) => texts.join(" ").includes(word))).toEqual([]);
      // Each with the message it came from.
      const db = await getDb();
      const rows = await db.select().from(memories).where(eq(memories.ownerId, user.userId));
      expect(rows.length).toBe(facts.length);
      for (const row of rows) {
        expect(row).toMatchObject({ scope: "member", organizationId: admin.organizationId });
        expect(row.sources).toEqual([
          { turnId: turns[index]?.turnId, messageId: expect.any(String) },
        ]);
      }
    }
  });

  it("I14.6 the same fact said again reinforces the memory instead of adding one", async () => {
    const user = await onboardingMember("Repeating Member");
    const chief = await chiefOf(user);
    await turn(user, chief, "I prefer oolong tea for the morning standup.");
    const [first] = await afterJobs(async () => {
      const list = await ownMemories(user);
      return list.length === 1 ? list : null;
    }, "the first memory");
    await turn(user, chief, "i prefer OOLONG tea,  for the morning standup!");
    const [again] = await afterJobs(async () => {
      const list = await ownMemories(user);
      return list[0] && list[0].sourceCount === 2 ? list : null;
    }, "the memory reinforced");
    expect(again).toMatchObject({ id: first?.id, importance: (first?.importance ?? 0) + 1 });
    expect(await ownMemories(user)).toHaveLength(1);
  });
});

describe("skill extraction", () => {
  it("I14.6 T22 a procedure becomes the member's skill, offered to their agents and used by name; another member's agents are not offered it until it is shared with confirmation", async () => {
    const owner = await onboardingMember("Skill Owner");
    const other = await onboardingMember("Skill Neighbour");
    const group = await createGroup(owner.client, "Release notes");
    await turn(
      owner,
      group.id,
      "Here is how to release the harbor app:\n1. Bump the version in the manifest\n2. Run the store checks\n3. Upload the build to the beta track",
    );
    type SkillList = {
      skills: Array<{ id: string; name: string; steps: string[]; shared: boolean }>;
      organization: Array<{ id: string; name: string }>;
    };
    const listed = await afterJobs(async () => {
      const response = await owner.client.json<SkillList>("/api/skills");
      return response.body.skills.length > 0 ? response.body : null;
    }, "the extracted skill");
    const [skill] = listed.skills;
    expect(skill).toMatchObject({
      name: "Release the harbor app",
      steps: [
        "Bump the version in the manifest",
        "Run the store checks",
        "Upload the build to the beta track",
      ],
      shared: false,
    });

    // Offered to the owner's agents in a later turn, and its steps come through use_skill.
    const used = await turn(owner, group.id, "use the skill Release the harbor app");
    expect(used.instructions).toMatch(
      /<skills>[\s\S]*- Release the harbor app: When you need to release the harbor app\./u,
    );
    const output = used.events.find((event) => event.data.type === "tool-output-available")?.data
      .output as { found?: boolean; steps?: string[] } | undefined;
    expect(output).toMatchObject({ found: true, steps: skill?.steps });

    // The neighbour's agents know nothing of it: without skills they are not even offered use_skill.
    const neighbour = await createGroup(other.client, "Neighbour");
    const looked = await turn(other, neighbour.id, "use the skill Release the harbor app");
    expect(looked.instructions).not.toContain("Release the harbor app");
    expect(looked.events.some((event) => event.data.type === "tool-input-available")).toBe(false);
    expect(looked.text).not.toContain("Bump the version");
    expect((await other.client.json<SkillList>("/api/skills")).body).toMatchObject({
      skills: [],
      organization: [],
    });

    // Sharing needs the explicit confirmation; without it nothing changes.
    const refused = await owner.client.json<{ error: { code: string } }>(
      `/api/skills/${skill?.id}/share`,
      { method: "POST", json: {} },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("bad_request:confirmation");
    const db = await getDb();
    const [unshared] = await db
      .select()
      .from(skills)
      .where(eq(skills.id, skill?.id ?? ""));
    expect(unshared?.ownerId).toBe(owner.userId);
    const shared = await owner.client.json(`/api/skills/${skill?.id}/share`, {
      method: "POST",
      json: { confirm: true },
    });
    expect(shared.status).toBe(200);
    const after = await turn(other, neighbour.id, "use the skill release the harbor app");
    expect(after.instructions).toContain("- Release the harbor app:");
    expect(
      after.events.find((event) => event.data.type === "tool-output-available")?.data.output,
    ).toMatchObject({ found: true, shared: true });
  });

  it("I14.6 a turn without a procedure writes no skill", async () => {
    const user = await onboardingMember("No Skill Member");
    const group = await createGroup(user.client, "Chatter");
    await turn(user, group.id, "What a lovely morning for a walk by the river.");
    await drainJobsOnce();
    // The skill job for that turn ran (its recent-activity sibling wrote its line meanwhile).
    await waitFor(async () => {
      const response = await user.client.json<{ activity: unknown[] }>("/api/activity");
      return response.body.activity.length > 0;
    }, "the turn's jobs");
    const db = await getDb();
    expect(await db.select().from(skills).where(eq(skills.ownerId, user.userId))).toEqual([]);
  });
});

describe("who sees a member's memories", () => {
  it("I14.7 a member's extracted memory never reaches another member's prompt, answers or lists, nor any admin payload; shared with confirmation, it reaches both", async () => {
    const ada = await onboardingMember("Visibility Ada");
    const bo = await onboardingMember("Visibility Bo");
    await turn(
      ada,
      await chiefOf(ada),
      "My favourite harbor cafe is the Blue Anchor on pier seven.",
    );
    const [fact] = await afterJobs(async () => {
      const list = await ownMemories(ada);
      return list.length > 0 ? list : null;
    }, "Ada's memory");
    expect(fact?.text).toContain("Blue Anchor");

    // Ada's own later turn uses it; Bo's same question does not see it.
    const adaGroup = await createGroup(ada.client, "Ada coffee");
    const adaAsks = await turn(ada, adaGroup.id, "Which harbor cafe should we meet at?");
    expect(adaAsks.instructions).toContain("Blue Anchor");
    expect(adaAsks.text).toContain("Blue Anchor");
    const boGroup = await createGroup(bo.client, "Bo coffee");
    const boAsks = await turn(bo, boGroup.id, "Which harbor cafe should we meet at?");
    expect(boAsks.instructions).not.toContain("Blue Anchor");
    expect(boAsks.text).not.toContain("Blue Anchor");
    expect(await ownMemories(bo)).toEqual([]);
    const boOrg = await bo.client.json<{ memories: unknown[] }>("/api/memories?scope=organization");
    expect(JSON.stringify(boOrg.body)).not.toContain("Blue Anchor");

    // Admin payloads: the organization list, a search for it, its id.
    const listed = await admin.client.fetch("/api/admin/memories");
    expect(listed.status).toBe(200);
    expect(await listed.text()).not.toContain("Blue Anchor");
    const searched = await admin.client.fetch("/api/admin/memories?q=Blue%20Anchor");
    expect(await searched.text()).not.toContain("Blue Anchor");
    for (const method of ["PATCH", "DELETE"] as const) {
      const response = await admin.client.fetch(`/api/admin/memories/${fact?.id}`, {
        method,
        json: method === "PATCH" ? { text: "Changed by an admin" } : undefined,
      });
      expect(response.status).toBe(404);
    }
    // Another member cannot reach it by id either.
    const boEdit = await bo.client.json<{ error: { code: string } }>(`/api/memories/${fact?.id}`, {
      method: "PATCH",
      json: { text: "Changed by Bo" },
    });
    expect(boEdit.status).toBe(404);
    expect(boEdit.body.error.code).toBe("not_found:memory");
    expect((await ownMemories(ada))[0]?.text).toBe(fact?.text);

    // Shared with confirmation: an organization memory, without its sources, for everyone.
    const shared = await ada.client.json<{ memory: Record<string, unknown> }>(
      `/api/memories/${fact?.id}/share`,
      { method: "POST", json: { confirm: true } },
    );
    expect(shared.status).toBe(200);
    expect(shared.body.memory).not.toHaveProperty("sources");
    const db = await getDb();
    const [row] = await db
      .select()
      .from(memories)
      .where(eq(memories.id, fact?.id ?? ""));
    expect(row).toMatchObject({ ownerId: null, scope: "organization", sources: [] });
    const adminList = await admin.client.json<{ memories: Array<{ text: string }> }>(
      "/api/admin/memories?q=anchor",
    );
    expect(adminList.body.memories.map((memory) => memory.text)).toEqual([fact?.text]);
    const boAgain = await turn(bo, boGroup.id, "Which harbor cafe should we meet at?");
    expect(boAgain.text).toContain("Blue Anchor");
  });
});

describe("bad input", () => {
  it("I14.7 text over 2,000 characters, another member's id, sharing without confirmation and a symbols-only search are refused with a code and change nothing", async () => {
    const ada = await onboardingMember("Bad Input Ada");
    const bo = await onboardingMember("Bad Input Bo");
    await turn(ada, await chiefOf(ada), "I keep the tide tables in the blue binder.");
    const [fact] = await afterJobs(async () => {
      const list = await ownMemories(ada);
      const activity = await ada.client.json<{ activity: unknown[] }>("/api/activity");
      // The turn's other jobs have written too, so nothing changes the counts below but the requests.
      return list.length > 0 && activity.body.activity.length > 0 ? list : null;
    }, "Ada's memory");
    const before = await countRows();
    const cases: Array<{
      who: SignedUpUser;
      path: string;
      method: string;
      json?: unknown;
      status: number;
      code: string;
    }> = [
      {
        who: ada,
        path: `/api/memories/${fact?.id}`,
        method: "PATCH",
        json: { text: "x".repeat(2_001) },
        status: 400,
        code: "bad_request:too_long",
      },
      {
        who: admin,
        path: "/api/admin/memories",
        method: "POST",
        json: { text: "y".repeat(2_001) },
        status: 400,
        code: "bad_request:too_long",
      },
      {
        who: admin,
        path: "/api/admin/memories",
        method: "POST",
        json: { text: "   " },
        status: 400,
        code: "bad_request:validation",
      },
      {
        who: bo,
        path: `/api/memories/${fact?.id}`,
        method: "DELETE",
        status: 404,
        code: "not_found:memory",
      },
      {
        who: bo,
        path: `/api/memories/${fact?.id}/share`,
        method: "POST",
        json: { confirm: true },
        status: 404,
        code: "not_found:memory",
      },
      {
        who: ada,
        path: `/api/memories/${fact?.id}/share`,
        method: "POST",
        json: {},
        status: 400,
        code: "bad_request:confirmation",
      },
      {
        who: ada,
        path: `/api/memories/${fact?.id}/share`,
        method: "POST",
        json: { confirm: false },
        status: 400,
        code: "bad_request:confirmation",
      },
      {
        who: ada,
        path: `/api/memories/${fact?.id}/share`,
        method: "POST",
        json: { confirm: "yes" },
        status: 400,
        code: "bad_request:validation",
      },
      {
        who: ada,
        path: "/api/memories?q=%25%25%20!!",
        method: "GET",
        status: 400,
        code: "bad_request:q",
      },
      {
        who: admin,
        path: "/api/admin/memories?q=%3F%3F",
        method: "GET",
        status: 400,
        code: "bad_request:q",
      },
      {
        who: ada,
        path: `/api/memories/${fact?.id}`,
        method: "PATCH",
        json: { importance: 11 },
        status: 400,
        code: "bad_request:validation",
      },
    ];
    for (const item of cases) {
      const response = await item.who.client.json<{ error: { code: string } }>(item.path, {
        method: item.method,
        json: item.json,
      });
      expect({ path: item.path, status: response.status, code: response.body.error?.code }).toEqual(
        {
          path: item.path,
          status: item.status,
          code: item.code,
        },
      );
    }
    expect(await countRows()).toEqual(before);
    const db = await getDb();
    const [row] = await db
      .select()
      .from(memories)
      .where(eq(memories.id, fact?.id ?? ""));
    expect(row).toMatchObject({ ownerId: ada.userId, text: fact?.text });
  });
});
