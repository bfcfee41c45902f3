// The workstream state and execution plan over HTTP and through real turns: the agent's tools
// (asked for in plain words to the offline model) merge by the eviction rules and record what
// they evicted; a member's own edit past a limit, malformed, too long, stale or for someone
// else's workstream is refused with a code and changes nothing; changes reach the owner's tabs
// only.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { workstreamStates } from "@/db/schema";
import {
  type Eviction,
  type ExecutionPlan,
  STATE_ITEM_MAX,
  type WorkstreamState,
} from "@/lib/state/schema";
import { wireDomains } from "@/root/wiring";
import { type Owner, send } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { readSse, textOf } from "../support/sse";
import { createGroup, type LiveData, LiveFollower } from "./workstreams-support/helpers";

vi.hoisted(() => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  // Nine turns in a row are the point of one test, not a burst to limit.
  process.env.WORKSTREAMS_RATE_LIMIT_TURNS = "0";
});

type ErrorBody = { error: { code: string; list?: string; id?: string; field?: string } };
type PatchBody = { version: number; state: WorkstreamState; lastEvictions: Eviction[] };

const app = appHarness({ wire: wireDomains });
let alice: Owner;
let bob: Owner;
const open: LiveFollower[] = [];

beforeAll(async () => {
  alice = await app.owner("Alice State");
  bob = await app.owner("Bob State");
});
afterAll(async () => {
  await Promise.all(open.map((follower) => follower.close()));
});

async function stored(workstreamId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(workstreamStates)
    .where(eq(workstreamStates.workstreamId, workstreamId));
  return row
    ? {
        version: row.version,
        state: row.state as WorkstreamState,
        plan: row.plan as ExecutionPlan | null,
        lastEvictions: row.lastEvictions as Eviction[],
      }
    : null;
}

/** Runs one turn to its end and returns the answer's text. */
async function turn(owner: Owner, text: string): Promise<string> {
  const { events } = await readSse(await send(owner, text));
  return textOf(events);
}

function patch(owner: Owner, workstreamId: string, body: unknown) {
  return owner.client.json<PatchBody & ErrorBody>(`/api/workstreams/${workstreamId}/state`, {
    method: "PATCH",
    json: body,
  });
}

async function follow(owner: Owner, query = "") {
  const follower = await LiveFollower.open(owner.client, query);
  open.push(follower);
  return follower;
}

const isContext = (workstreamId: string, reason: string) => (event: LiveData) =>
  event.type === "context" && event.workstreamId === workstreamId && event.reason === reason;

describe("the agent's state and plan tools through a turn", () => {
  it("I13.1 I13.5 W9 nine decisions over nine turns keep eight; the lowest-confidence one is evicted and recorded", async () => {
    const owner = await app.owner("Nine Decisions");
    for (let i = 1; i <= 9; i++) {
      // One decision is less sure than the others; the plain request records the default 0.7.
      const message =
        i === 3
          ? `[tool:update_workstream_state:{"keyDecisions":{"add":[{"text":"D3 maybe","rationale":"a hunch","confidence":0.2}]}}]`
          : `record the decision: D${i} because R${i}`;
      const answer = await turn(owner, message);
      if (i === 9) {
        expect(answer).toContain("let go of 1 older item");
        expect(answer).toContain("“D3 maybe”");
      }
    }
    const row = await stored(owner.workstreamId);
    expect(row?.state.keyDecisions).toHaveLength(8);
    expect(row?.state.keyDecisions.map((d) => d.text)).not.toContain("D3 maybe");
    expect(row?.state.keyDecisions.find((d) => d.text === "D1")).toMatchObject({
      rationale: "R1",
      confidence: 0.7,
    });
    expect(row?.lastEvictions).toEqual([
      expect.objectContaining({ list: "keyDecisions", text: "D3 maybe", rule: expect.any(String) }),
    ]);
  });

  it("I13.5 update_workstream_state through a turn changes the state and tells the owner's tabs only", async () => {
    const ownerTab = await follow(alice);
    const orgTab = await follow(alice, "?scope=organization");
    const answer = await turn(alice, "Please add a task: write the launch FAQ");
    expect(answer).toContain("task: “write the launch FAQ”");
    const row = await stored(alice.workstreamId);
    expect(row?.state.tasks).toEqual([
      expect.objectContaining({ text: "write the launch FAQ", status: "open" }),
    ]);
    await ownerTab.next(isContext(alice.workstreamId, "state"));
    // The owner's tab heard it; give the organization's topic the same time to (not) hear it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(orgTab.events.some((event) => event.type === "context")).toBe(false);
  });

  it("I13.2 I13.5 T10 update_plan through a turn starts a plan, keeps the ids of unchanged steps, and tells the owner", async () => {
    const ownerTab = await follow(alice);
    const orgTab = await follow(alice, "?scope=organization");
    const answer = await turn(alice, "plan: draft the brief; review it; publish");
    expect(answer).toContain("1. draft the brief — in progress");
    const first = (await stored(alice.workstreamId))?.plan;
    expect(first).toMatchObject({
      status: "active",
      steps: [
        { title: "draft the brief", status: "in_progress" },
        { title: "review it", status: "pending" },
        { title: "publish", status: "pending" },
      ],
    });
    await ownerTab.next(isContext(alice.workstreamId, "plan"));
    await turn(alice, "make a plan for Launch: draft the brief; legal review; publish");
    const second = (await stored(alice.workstreamId))?.plan;
    // The plan is still active, so this revises it: same plan, same ids for unchanged steps.
    expect(second?.id).toBe(first?.id);
    expect(second?.title).toBe("Launch");
    expect(second?.steps.map((step) => step.id)).toEqual([
      first?.steps[0]?.id,
      expect.not.stringMatching(first?.steps[1]?.id ?? "-"),
      first?.steps[2]?.id,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(orgTab.events.some((event) => event.type === "context")).toBe(false);
  });

  it("I13.1 an item over 500 characters through the tool is an error the model sees, and nothing changes", async () => {
    const owner = await app.owner("Too Long Tool");
    const answer = await turn(owner, `add a risk: ${"x".repeat(STATE_ITEM_MAX + 20)}`);
    expect(answer).toContain("reported an error");
    const unknown = await turn(
      owner,
      '[tool:update_workstream_state:{"tasks":{"remove":["task_nope"]}}] tidy up',
    );
    expect(unknown).toContain('tasks has no item with id "task_nope"');
    expect(await stored(owner.workstreamId)).toBeNull();
  });
});

describe("PATCH /api/workstreams/:id/state", () => {
  it("I13.1 W9 the owner's edit adds, updates and removes items and answers the new version", async () => {
    const first = await patch(alice, alice.workstreamId, {
      delta: { risks: { add: [{ text: "vendor delay" }, { text: "scope creep" }] } },
    });
    expect(first.status).toBe(200);
    const [delay, creep] = first.body.state.risks;
    const second = await patch(alice, alice.workstreamId, {
      version: first.body.version,
      delta: {
        risks: { update: [{ id: delay?.id, text: "vendor delay (2 weeks)" }], remove: [creep?.id] },
      },
    });
    expect(second.status).toBe(200);
    expect(second.body.version).toBe(first.body.version + 1);
    expect(second.body.state.risks.map((risk) => risk.text)).toEqual(["vendor delay (2 weeks)"]);
    expect((await stored(alice.workstreamId))?.state.risks).toEqual(second.body.state.risks);
  });

  it("I13.1 W9 an edit past a list's limit answers 422 limit:state naming the list, and nothing changes", async () => {
    const owner = await app.owner("Over Limit");
    const full = Array.from({ length: 5 }, (_, i) => ({ text: `question ${i}` }));
    expect(
      (await patch(owner, owner.workstreamId, { delta: { openQuestions: { add: full } } })).status,
    ).toBe(200);
    const before = await stored(owner.workstreamId);
    const over = await patch(owner, owner.workstreamId, {
      delta: { tasks: { add: [{ text: "fine" }] }, openQuestions: { add: [{ text: "one more" }] } },
    });
    expect([over.status, over.body.error.code, over.body.error.list]).toEqual([
      422,
      "limit:state",
      "openQuestions",
    ]);
    expect(await stored(owner.workstreamId)).toEqual(before);
  });

  it("I13.1 malformed, unstorable, unknown-id and too-long edits answer 400 with a code, and nothing changes", async () => {
    const owner = await app.owner("Bad Input");
    const cases: Array<[unknown, string]> = [
      [{ delta: { tasks: { add: "write docs" } } }, "bad_request:validation"],
      [{ delta: { tasks: { add: [{ text: "x", priority: 1 }] } } }, "bad_request:unknown_field"],
      [{ delta: { moods: { add: [{ text: "x" }] } } }, "bad_request:unknown_field"],
      [{ delta: { tasks: { add: [{ text: "a\u0000b" }] } } }, "bad_request:text"],
      [{ delta: { tasks: { remove: ["task_nothere"] } } }, "bad_request:validation"],
      [
        { delta: { risks: { add: [{ text: "y".repeat(STATE_ITEM_MAX + 1) }] } } },
        "bad_request:too_long",
      ],
      [{ delta: {}, version: "3" }, "bad_request:validation"],
    ];
    for (const [body, code] of cases) {
      const response = await patch(owner, owner.workstreamId, body);
      expect(
        [response.status, response.body.error.code],
        JSON.stringify(body).slice(0, 80),
      ).toEqual([400, code]);
    }
    const unknownId = await patch(owner, owner.workstreamId, {
      delta: { tasks: { update: [{ id: "task_ghost", status: "done" }] } },
    });
    expect(unknownId.body.error.id).toBe("task_ghost");
    expect(await stored(owner.workstreamId)).toBeNull();
  });

  it("I13.1 another member's workstream is not found, and an archived one refuses edits", async () => {
    const response = await patch(bob, alice.workstreamId, {
      delta: { tasks: { add: [{ text: "not mine" }] } },
    });
    expect([response.status, response.body.error.code]).toEqual([404, "not_found:workstream"]);
    const group = await createGroup(bob.client, "Archived state");
    await bob.client.fetch(`/api/workstreams/${group.id}/archive`, { method: "POST" });
    const archived = await patch(bob, group.id, { delta: { tasks: { add: [{ text: "late" }] } } });
    expect([archived.status, archived.body.error.code]).toEqual([409, "conflict:archived"]);
    expect(await stored(group.id)).toBeNull();
  });

  it("I13.1 an edit against a stale version answers 409 conflict:state_version, and nothing changes", async () => {
    const owner = await app.owner("Stale Version");
    const first = await patch(owner, owner.workstreamId, {
      version: 0,
      delta: { artifacts: { add: [{ text: "brief.pdf" }] } },
    });
    expect(first.body.version).toBe(1);
    await patch(owner, owner.workstreamId, { delta: { artifacts: { add: [{ text: "deck" }] } } });
    const before = await stored(owner.workstreamId);
    const stale = await patch(owner, owner.workstreamId, {
      version: 1,
      delta: { artifacts: { add: [{ text: "stale edit" }] } },
    });
    expect([stale.status, stale.body.error.code]).toEqual([409, "conflict:state_version"]);
    expect(await stored(owner.workstreamId)).toEqual(before);
  });

  it("I13.1 edits at the same moment are all kept: a writer that lost the race merges again", async () => {
    const owner = await app.owner("Same Moment");
    const results = await Promise.all(
      ["one", "two", "three"].map((text) =>
        patch(owner, owner.workstreamId, { delta: { artifacts: { add: [{ text }] } } }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    expect(results.map((result) => result.body.version).sort()).toEqual([1, 2, 3]);
    const row = await stored(owner.workstreamId);
    expect(row?.version).toBe(3);
    expect(row?.state.artifacts.map((item) => item.text).sort()).toEqual(["one", "three", "two"]);
  });

  it("I13.1 the owner's edit reaches the owner's tabs and not the organization's", async () => {
    const ownerTab = await follow(bob);
    const orgTab = await follow(bob, "?scope=organization");
    await patch(bob, bob.workstreamId, { delta: { risks: { add: [{ text: "heard" }] } } });
    await ownerTab.next(isContext(bob.workstreamId, "state"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(orgTab.events.some((event) => event.type === "context")).toBe(false);
  });
});
