// The workstream service over HTTP (seed 001): direct, group and core workstreams; listing with
// paging; rename, archive, unarchive and delete with their rules; isolation; bad input.
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { messages, turnEvents, turns, workstreams } from "@/db/schema";
import { config } from "@/lib/config";
import type { WorkstreamSummary } from "@/lib/workstreams/types";
import { appHarness } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { readSse } from "../support/sse";
import { createGroup, joinOrganization, sendTo, waitIdle } from "./workstreams-support/helpers";

type List = { workstreams: WorkstreamSummary[]; hasMore: boolean; page?: number };
type ErrorBody = { error: { code: string } };

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" } });
let alice: SignedUpUser;

beforeAll(async () => {
  alice = await app.signUp("Alice Lists");
});

async function list(user: SignedUpUser, query: string) {
  return user.client.json<List & ErrorBody>(`/api/workstreams?${query}`);
}

async function rowCount(table: typeof messages | typeof turns | typeof turnEvents, id: string) {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(table).where(eq(table.workstreamId, id));
  return Number(row?.n ?? 0);
}

describe("creating workstreams", () => {
  it("W2 W5 a direct workstream has the deterministic id and is created idempotently", async () => {
    const expectedId = `direct_researcher_user_${alice.userId}_organization_${alice.organizationId}`;
    const first = await alice.client.json<WorkstreamSummary & { created: boolean }>(
      "/api/workstreams",
      { method: "POST", json: { mode: "direct", agentId: "researcher" } },
    );
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: expectedId,
      mode: "direct",
      agentId: "researcher",
      title: "Researcher",
      core: false,
      created: true,
    });
    const again = await alice.client.json<WorkstreamSummary & { created: boolean }>(
      "/api/workstreams",
      { method: "POST", json: { mode: "direct", agentId: "researcher" } },
    );
    expect(again.body).toMatchObject({ id: expectedId, created: false });
    const db = await getDb();
    const rows = await db.select().from(workstreams).where(eq(workstreams.id, expectedId));
    expect(rows).toHaveLength(1);
  });

  it("W3 W5 a group workstream defaults to “New Workstream” and is led by the chief", async () => {
    const untitled = await createGroup(alice.client);
    expect(untitled).toMatchObject({
      mode: "group",
      core: false,
      title: config.workstreams.defaultGroupTitle,
      agentId: "chief",
      status: "regular",
      isRunning: false,
      isCompacting: false,
    });
    const titled = await createGroup(alice.client, "  Product   launch\nplan ");
    expect(titled.title).toBe("Product launch plan");
    expect(titled.id).not.toBe(untitled.id);
  });

  it("W4 W5 a core workstream takes its fixed title and agent from its profile, idempotently", async () => {
    const response = await alice.client.json<WorkstreamSummary>("/api/workstreams", {
      method: "POST",
      json: { mode: "group", core: true, coreType: "decision-log" },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      mode: "group",
      core: true,
      coreType: "decision-log",
      title: "Decision Log",
      agentId: "analyst",
    });
    const again = await alice.client.json<WorkstreamSummary>("/api/workstreams", {
      method: "POST",
      json: { mode: "group", core: true, coreType: "decision-log" },
    });
    expect(again.body.id).toBe(response.body.id);
  });

  it("W5 bad input answers 400 with a code and creates nothing", async () => {
    const db = await getDb();
    const before = await db.select({ n: count() }).from(workstreams);
    const cases: Array<[unknown, string]> = [
      [{ mode: "solo" }, "bad_request:mode"],
      [{ agentId: "chief" }, "bad_request:mode"],
      [{ mode: "direct", agentId: "nobody" }, "bad_request:agent"],
      [{ mode: "direct", agentId: "constructor" }, "bad_request:agent"],
      [{ mode: "direct" }, "bad_request:agent"],
      [{ mode: "group", core: true, coreType: "weekly-nothing" }, "bad_request:core_type"],
      [{ mode: "group", core: true }, "bad_request:core_type"],
      [{ mode: "group", core: true, coreType: "decision-log", title: "Mine" }, "bad_request:core"],
      [{ mode: "group", title: "   " }, "bad_request:title"],
      [
        { mode: "group", title: "x".repeat(config.workstreams.titleMaxChars + 1) },
        "bad_request:title",
      ],
      [{ mode: "group", agentId: "ghost" }, "bad_request:agent"],
      [{ mode: "group", surprise: true }, "bad_request:unknown_field"],
    ];
    for (const [body, code] of cases) {
      const response = await alice.client.json<ErrorBody>("/api/workstreams", {
        method: "POST",
        json: body,
      });
      expect({ body, status: response.status, code: response.body.error.code }).toEqual({
        body,
        status: 400,
        code,
      });
    }
    const after = await db.select({ n: count() }).from(workstreams);
    expect(after).toEqual(before);
  });
});

describe("listing workstreams", () => {
  it("W6 pages standard group workstreams 15 at a time with hasMore, newest activity first", async () => {
    const bob = await app.signUp("Bob Pages");
    const created: string[] = [];
    for (let i = 0; i < 17; i++) created.push((await createGroup(bob.client, `Stream ${i}`)).id);
    await bob.client.json("/api/workstreams", {
      method: "POST",
      json: { mode: "group", core: true, coreType: "daily-activities" },
    });
    const first = await list(bob, "mode=group&core=false");
    expect(first.status).toBe(200);
    expect(first.body.workstreams).toHaveLength(15);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.workstreams.every((item) => !item.core)).toBe(true);
    const second = await list(bob, "mode=group&core=false&page=2");
    expect(second.body.workstreams).toHaveLength(2);
    expect(second.body.hasMore).toBe(false);
    const all = [...first.body.workstreams, ...second.body.workstreams].map((item) => item.id);
    expect(new Set(all)).toEqual(new Set(created));
    expect(all[0]).toBe(created.at(-1));
    const small = await list(bob, "mode=group&take=5&page=4");
    expect(small.body.workstreams).toHaveLength(2);

    const core = await list(bob, "mode=group&core=true");
    expect(core.body.workstreams.map((item) => item.coreType)).toEqual(["daily-activities"]);
  });

  it("W6 lists direct workstreams without paging, in the config's agent order", async () => {
    const carol = await app.signUp("Carol Direct");
    for (const agentId of ["writer", "chief", "analyst"]) {
      await carol.client.json("/api/workstreams", {
        method: "POST",
        json: { mode: "direct", agentId },
      });
    }
    const direct = await list(carol, "mode=direct");
    expect(direct.body.workstreams.map((item) => item.agentId)).toEqual([
      "chief",
      "analyst",
      "writer",
    ]);
    expect(direct.body.hasMore).toBe(false);
  });

  it("W6 W11 leaves archived workstreams out unless includeArchived", async () => {
    const dave = await app.signUp("Dave Archive");
    const kept = await createGroup(dave.client, "Kept");
    const archived = await createGroup(dave.client, "Shelved");
    await dave.client.fetch(`/api/workstreams/${archived.id}/archive`, { method: "POST" });
    const plain = await list(dave, "mode=group");
    expect(plain.body.workstreams.map((item) => item.id)).toEqual([kept.id]);
    const withArchived = await list(dave, "mode=group&includeArchived=true");
    expect(withArchived.body.workstreams.map((item) => [item.id, item.status])).toEqual(
      expect.arrayContaining([
        [kept.id, "regular"],
        [archived.id, "archived"],
      ]),
    );
  });

  it("W6 bad list input answers 400 with a code", async () => {
    const cases: Array<[string, string]> = [
      ["", "bad_request:mode"],
      ["mode=everything", "bad_request:mode"],
      ["mode=direct&core=true", "bad_request:core"],
      ["mode=direct&take=5", "bad_request:paging"],
      ["mode=group&core=true&page=2", "bad_request:paging"],
      ["mode=group&page=0", "bad_request:page"],
      ["mode=group&page=-1", "bad_request:page"],
      ["mode=group&page=abc", "bad_request:page"],
      ["mode=group&page=99", "bad_request:page"],
      ["mode=group&take=0", "bad_request:take"],
      [`mode=group&take=${config.workstreams.groupMaxTake + 1}`, "bad_request:take"],
      ["mode=group&core=maybe", "bad_request:core"],
    ];
    for (const [query, code] of cases) {
      const response = await list(alice, query);
      expect({ query, status: response.status, code: response.body.error?.code }).toEqual({
        query,
        status: 400,
        code,
      });
    }
  });
});

describe("changing workstreams", () => {
  it("W3 renames a group workstream, refusing empty and over-long titles without changing it", async () => {
    const stream = await createGroup(alice.client, "Draft");
    const renamed = await alice.client.json<WorkstreamSummary>(`/api/workstreams/${stream.id}`, {
      method: "PATCH",
      json: { title: "Launch plan" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe("Launch plan");
    for (const title of ["", "  \n ", "y".repeat(config.workstreams.titleMaxChars + 1)]) {
      const refused = await alice.client.json<ErrorBody>(`/api/workstreams/${stream.id}`, {
        method: "PATCH",
        json: { title },
      });
      expect([refused.status, refused.body.error.code]).toEqual([400, "bad_request:title"]);
    }
    const atLimit = "z".repeat(config.workstreams.titleMaxChars);
    const ok = await alice.client.json<WorkstreamSummary>(`/api/workstreams/${stream.id}`, {
      method: "PATCH",
      json: { title: atLimit },
    });
    expect(ok.body.title).toBe(atLimit);
    const missing = await alice.client.json<ErrorBody>(`/api/workstreams/${stream.id}`, {
      method: "PATCH",
      json: {},
    });
    expect(missing.status).toBe(400);
  });

  it("W2 W4 W11 direct and core workstreams cannot be renamed, archived or deleted (409)", async () => {
    const direct = await alice.client.json<WorkstreamSummary>("/api/workstreams", {
      method: "POST",
      json: { mode: "direct", agentId: "chief" },
    });
    const core = await alice.client.json<WorkstreamSummary>("/api/workstreams", {
      method: "POST",
      json: { mode: "group", core: true, coreType: "daily-activities" },
    });
    for (const [target, code] of [
      [direct.body, "conflict:direct_immutable"],
      [core.body, "conflict:core_immutable"],
    ] as const) {
      const attempts = [
        alice.client.json<ErrorBody>(`/api/workstreams/${target.id}`, {
          method: "PATCH",
          json: { title: "Renamed" },
        }),
        alice.client.json<ErrorBody>(`/api/workstreams/${target.id}/archive`, { method: "POST" }),
        alice.client.json<ErrorBody>(`/api/workstreams/${target.id}/unarchive`, {
          method: "POST",
        }),
        alice.client.json<ErrorBody>(`/api/workstreams/${target.id}`, { method: "DELETE" }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect([response.status, response.body.error.code]).toEqual([409, code]);
      }
      const after = await alice.client.json<WorkstreamSummary>(`/api/workstreams/${target.id}`);
      expect(after.body).toMatchObject({ title: target.title, status: "regular" });
    }
  });

  it("W11 archive and unarchive are idempotent; delete needs archiving first", async () => {
    const stream = await createGroup(alice.client, "Lifecycle");
    const early = await alice.client.json<ErrorBody>(`/api/workstreams/${stream.id}`, {
      method: "DELETE",
    });
    expect([early.status, early.body.error.code]).toEqual([409, "conflict:not_archived"]);
    expect((await alice.client.json(`/api/workstreams/${stream.id}`)).status).toBe(200);

    for (let i = 0; i < 2; i++) {
      const archived = await alice.client.json<WorkstreamSummary>(
        `/api/workstreams/${stream.id}/archive`,
        { method: "POST" },
      );
      expect([archived.status, archived.body.status]).toEqual([200, "archived"]);
    }
    const refusedTurn = await sendTo(alice.client, stream.id, "[echo] hello");
    expect(refusedTurn.status).toBe(409);
    await refusedTurn.text();
    for (let i = 0; i < 2; i++) {
      const back = await alice.client.json<WorkstreamSummary>(
        `/api/workstreams/${stream.id}/unarchive`,
        { method: "POST" },
      );
      expect([back.status, back.body.status]).toEqual([200, "regular"]);
    }
  });

  it("W11 deleting an archived workstream removes its messages, turns and events", async () => {
    const stream = await createGroup(alice.client, "To delete");
    await readSse(await sendTo(alice.client, stream.id, "[echo] remember this"));
    await waitIdle(alice.client, stream.id);
    expect(await rowCount(messages, stream.id)).toBe(2);
    expect(await rowCount(turns, stream.id)).toBe(1);
    expect(await rowCount(turnEvents, stream.id)).toBeGreaterThan(0);

    await alice.client.fetch(`/api/workstreams/${stream.id}/archive`, { method: "POST" });
    const deleted = await alice.client.json<{ id: string }>(`/api/workstreams/${stream.id}`, {
      method: "DELETE",
    });
    expect([deleted.status, deleted.body.id]).toEqual([200, stream.id]);
    expect(await rowCount(messages, stream.id)).toBe(0);
    expect(await rowCount(turns, stream.id)).toBe(0);
    expect(await rowCount(turnEvents, stream.id)).toBe(0);
    expect((await alice.client.json(`/api/workstreams/${stream.id}`)).status).toBe(404);
    const again = await alice.client.json<ErrorBody>(`/api/workstreams/${stream.id}`, {
      method: "DELETE",
    });
    expect([again.status, again.body.error.code]).toEqual([404, "not_found:workstream"]);
  });

  it("W12 exposes isRunning while a turn runs, never the run id", async () => {
    const stream = await createGroup(alice.client, "Busy");
    const response = await sendTo(alice.client, stream.id, "[hang] keep going");
    expect(response.status).toBe(200);
    const listed = await list(alice, "mode=group&take=50");
    const item = listed.body.workstreams.find((entry) => entry.id === stream.id);
    expect(item).toMatchObject({ isRunning: true, isCompacting: false });
    expect(JSON.stringify(listed.body)).not.toMatch(/activeRunId|serverRunId/);
    await alice.client.fetch(`/api/workstreams/${stream.id}/stop`, { method: "POST", json: {} });
    await response.body?.cancel();
    await waitIdle(alice.client, stream.id);
    const after = await list(alice, "mode=group&take=50");
    expect(after.body.workstreams.find((entry) => entry.id === stream.id)?.isRunning).toBe(false);
  });
});

describe("isolation", () => {
  it("W1 another member's or organization's workstream is 404 and never listed", async () => {
    const owner = await app.signUp("Org Owner");
    const colleague = await app.signUp("Org Colleague");
    await joinOrganization(colleague, owner.organizationId, "member");
    const mine = await createGroup(owner.client, "Private plan");
    for (const user of [colleague, alice]) {
      const attempts = [
        user.client.fetch(`/api/workstreams/${mine.id}`),
        user.client.fetch(`/api/workstreams/${mine.id}`, {
          method: "PATCH",
          json: { title: "Hijacked" },
        }),
        user.client.fetch(`/api/workstreams/${mine.id}/archive`, { method: "POST" }),
        user.client.fetch(`/api/workstreams/${mine.id}`, { method: "DELETE" }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.status).toBe(404);
        await response.text();
      }
      const listed = await list(user, "mode=group&take=50&includeArchived=true");
      expect(listed.body.workstreams.map((item) => item.id)).not.toContain(mine.id);
    }
    const unchanged = await owner.client.json<WorkstreamSummary>(`/api/workstreams/${mine.id}`);
    expect(unchanged.body).toMatchObject({ title: "Private plan", status: "regular" });
  });
});
