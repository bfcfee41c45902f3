// The admin console's workstream API: every workstream of the organization with owner, status,
// usage and running state (metadata, never message content); filters and search; archive,
// unarchive, delete and stop; members 403, other organizations 404.
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminTurn, AdminWorkstream } from "@/lib/admin/workstreams";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { appHarness } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { readSse } from "../support/sse";
import { createGroup, joinOrganization, sendTo, waitIdle } from "./workstreams-support/helpers";

type AdminList = { workstreams: AdminWorkstream[]; total: number; hasMore: boolean };
type ErrorBody = { error: { code: string } };

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" } });
let owner: SignedUpUser;
let admin: SignedUpUser;
let worker: SignedUpUser;
let outsider: SignedUpUser;

beforeAll(async () => {
  owner = await app.signUp("Admin Owner");
  admin = await app.signUp("Admin Admin");
  worker = await app.signUp("Admin Worker");
  outsider = await app.signUp("Admin Outsider");
  await joinOrganization(admin, owner.organizationId, "admin");
  await joinOrganization(worker, owner.organizationId, "member");
});

async function adminList(user: SignedUpUser, query = "") {
  return user.client.json<AdminList & ErrorBody>(`/api/admin/workstreams${query}`);
}

describe("the organization's workstreams", () => {
  it("W1 lists every member's workstreams with owner, usage and counts, without message content", async () => {
    const stream = await createGroup(worker.client, "Secret pricing");
    await readSse(await sendTo(worker.client, stream.id, "The launch price is 4242 credits"));
    await waitIdle(worker.client, stream.id);
    for (const user of [owner, admin]) {
      const response = await adminList(user);
      expect(response.status).toBe(200);
      const row = response.body.workstreams.find((item) => item.id === stream.id);
      expect(row).toMatchObject({
        title: "Secret pricing",
        mode: "group",
        status: "regular",
        isRunning: false,
        messageCount: 2,
        turnCount: 1,
        owner: { id: worker.userId, name: "Admin Worker", isMember: true },
      });
      expect(row?.inputTokens).toBeGreaterThan(0);
      expect(row?.outputTokens).toBeGreaterThan(0);
      expect(JSON.stringify(response.body)).not.toContain("4242");
    }
    const runs = await admin.client.json<{ runs: AdminTurn[] }>(
      `/api/admin/workstreams/${stream.id}`,
    );
    expect(runs.body.runs).toHaveLength(1);
    expect(runs.body.runs[0]).toMatchObject({ state: "completed", agentId: "chief" });
    expect(JSON.stringify(runs.body)).not.toContain("4242");
  });

  it("W1 filters by kind, status, running and owner, and searches titles and owners", async () => {
    const plan = await createGroup(worker.client, "Quarterly plan");
    const shelved = await createGroup(worker.client, "Shelved idea 100%");
    await worker.client.fetch(`/api/workstreams/${shelved.id}/archive`, { method: "POST" });
    await worker.client.json("/api/workstreams", {
      method: "POST",
      json: { mode: "direct", agentId: "writer" },
    });
    const ids = async (query: string) =>
      (await adminList(admin, query)).body.workstreams.map((item) => item.id);

    expect(await ids("?q=quarterly")).toEqual([plan.id]);
    expect(await ids("?q=100%25")).toEqual([shelved.id]);
    expect(await ids("?q=admin%20worker")).toEqual(expect.arrayContaining([plan.id, shelved.id]));
    expect(await ids("?status=archived")).toEqual([shelved.id]);
    expect(await ids("?status=regular")).not.toContain(shelved.id);
    const direct = (await adminList(admin, "?kind=direct")).body.workstreams;
    expect(direct.every((item) => item.mode === "direct")).toBe(true);
    expect(direct.length).toBeGreaterThan(0);
    expect(await ids(`?ownerId=${owner.userId}`)).not.toContain(plan.id);
    expect(await ids("?running=true")).toEqual([]);
    for (const [query, code] of [
      ["?kind=robot", "bad_request:kind"],
      ["?status=gone", "bad_request:status"],
      ["?page=0", "bad_request:page"],
      ["?running=perhaps", "bad_request:running"],
    ]) {
      const response = await adminList(admin, query);
      expect([response.status, response.body.error.code]).toEqual([400, code]);
    }
  });

  it("W11 admins archive, unarchive and delete group workstreams; direct and core stay (409)", async () => {
    const stream = await createGroup(worker.client, "Admin cleanup");
    const archive = await admin.client.json<{ status: string }>(
      `/api/admin/workstreams/${stream.id}/archive`,
      { method: "POST" },
    );
    expect([archive.status, archive.body.status]).toEqual([200, "archived"]);
    const restore = await admin.client.json<{ status: string }>(
      `/api/admin/workstreams/${stream.id}/unarchive`,
      { method: "POST" },
    );
    expect(restore.body.status).toBe("regular");
    const early = await admin.client.json<ErrorBody>(`/api/admin/workstreams/${stream.id}`, {
      method: "DELETE",
    });
    expect([early.status, early.body.error.code]).toEqual([409, "conflict:not_archived"]);
    await admin.client.fetch(`/api/admin/workstreams/${stream.id}/archive`, { method: "POST" });
    const gone = await admin.client.json(`/api/admin/workstreams/${stream.id}`, {
      method: "DELETE",
    });
    expect(gone.status).toBe(200);
    expect((await worker.client.json(`/api/workstreams/${stream.id}`)).status).toBe(404);

    const direct = await worker.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "direct", agentId: "chief" },
    });
    const core = await worker.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "group", core: true, coreType: "daily-activities" },
    });
    for (const [id, code] of [
      [direct.body.id, "conflict:direct_immutable"],
      [core.body.id, "conflict:core_immutable"],
    ]) {
      const refused = await admin.client.json<ErrorBody>(`/api/admin/workstreams/${id}/archive`, {
        method: "POST",
      });
      expect([refused.status, refused.body.error.code]).toEqual([409, code]);
    }
  });

  it("W12 an admin stops a member's running turn", async () => {
    const stream = await createGroup(worker.client, "Runaway");
    const response = await sendTo(worker.client, stream.id, "[hang] go on forever");
    expect(response.status).toBe(200);
    const running = await adminList(admin, "?running=true");
    expect(running.body.workstreams.map((item) => item.id)).toEqual([stream.id]);
    const stopped = await admin.client.json<{ turnId: string | null; state: string | null }>(
      `/api/admin/workstreams/${stream.id}/stop`,
      { method: "POST" },
    );
    expect(stopped.status).toBe(200);
    expect(stopped.body.state).toBe("cancelled");
    const { events } = await readSse(response);
    expect(events.some((event) => event.data.type === "abort")).toBe(true);
    // S13 an admin's stop records the same reason as the owner's.
    const runs = await admin.client.json<{ runs: AdminTurn[] }>(
      `/api/admin/workstreams/${stream.id}`,
    );
    expect(runs.body.runs[0]).toMatchObject({
      state: "cancelled",
      reason: ERROR_SENTENCES["turn:stopped"],
    });
    const info = await worker.client.json<{ isRunning: boolean }>(`/api/workstreams/${stream.id}`);
    expect(info.body.isRunning).toBe(false);
    const idle = await admin.client.json<{ turnId: string | null }>(
      `/api/admin/workstreams/${stream.id}/stop`,
      { method: "POST" },
    );
    expect(idle.body.turnId).toBeNull();
  });

  it("W1 members get 403; other organizations' workstreams are 404", async () => {
    const stream = await createGroup(worker.client, "Guarded");
    for (const path of [
      "/api/admin/workstreams",
      `/api/admin/workstreams/${stream.id}`,
      "/api/admin/members",
      "/api/admin/invitations",
    ]) {
      const response = await worker.client.json<ErrorBody>(path);
      expect([path, response.status, response.body.error.code]).toEqual([
        path,
        403,
        "forbidden:role",
      ]);
    }
    // The outsider is the owner of their own organization: they see theirs, never ours.
    const theirs = await adminList(outsider);
    expect(theirs.status).toBe(200);
    expect(theirs.body.workstreams.map((item) => item.id)).not.toContain(stream.id);
    for (const [method, path] of [
      ["GET", `/api/admin/workstreams/${stream.id}`],
      ["POST", `/api/admin/workstreams/${stream.id}/archive`],
      ["POST", `/api/admin/workstreams/${stream.id}/stop`],
      ["DELETE", `/api/admin/workstreams/${stream.id}`],
    ] as const) {
      const response = await outsider.client.json<ErrorBody>(path, { method });
      expect([path, response.status, response.body.error.code]).toEqual([
        path,
        404,
        "not_found:workstream",
      ]);
    }
  });
});
