// The authority stack over tool calls, through real turns: the organization's policy first
// (forbidden is denied without asking, requires approval always asks, whatever the mode), then
// remembered grants and the workstream's security mode (auto, allowlist, ask), then the owner;
// every decision made without asking is audited with its source.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { toolGrants } from "@/db/schema";
import { wireTurnTools } from "@/root/wiring";
import { type AppServer, startAppServer } from "../support/app-server";
import { send } from "../support/fixtures";
import type { HttpClient } from "../support/http-client";
import { readSse, statuses, textOf } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";
import {
  answer,
  approvalRows,
  type Desk,
  decisionRows,
  deskWithTarget,
  eventually,
  followFrom,
  messagesOf,
  turnRow,
} from "./approvals-support";

let testDb: TestDatabase;
let server: AppServer;

beforeAll(async () => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  testDb = await useTestDatabase();
  wireTurnTools();
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

async function turn(desk: Desk, text: string) {
  const response = await send(desk, text);
  const turnId = String(response.headers.get("x-turn-id"));
  const { events } = await readSse(response);
  return { turnId, events, last: statuses(events).at(-1) };
}

function setPolicy(client: HttpClient, rules: Record<string, string>) {
  return client.json<{ tools: Array<{ toolName: string; rule: string; asks: string }> }>(
    "/api/admin/tool-policy",
    { method: "PUT", json: { rules } },
  );
}

function setSecurity(desk: Desk, body: Record<string, unknown>) {
  return desk.client.json<{ security?: { mode: string; allowlist: string[] }; error?: unknown }>(
    `/api/workstreams/${desk.workstreamId}`,
    { method: "PATCH", json: body },
  );
}

const SEND = "tell my Launch notes workstream: the launch moved to May";

describe("the authority stack", () => {
  it("B1 a tool the policy forbids is denied without asking, even in auto mode; the model is told", async () => {
    const desk = await deskWithTarget(server.url);
    expect((await setPolicy(desk.client, { send_message: "forbidden" })).status).toBe(200);
    expect((await setSecurity(desk, { securityMode: "auto" })).status).toBe(200);
    const { turnId, events, last } = await turn(desk, SEND);
    expect(last).toBe("ready");
    // Nobody is asked: no approval request, automatic or not, reaches the stream.
    const types = events.map((event) => event.data.type);
    expect(types).not.toContain("tool-approval-request");
    expect(types).not.toContain("tool-approval-response");
    // The model reads one denial, the call's result, and says so.
    expect(types.filter((type) => String(type).startsWith("tool-output-"))).toEqual([
      "tool-output-available",
    ]);
    expect(textOf(events)).toContain("was not approved (“Forbidden by policy");
    expect(await messagesOf(desk.targetId)).toHaveLength(0);
    expect(await approvalRows(turnId)).toHaveLength(0);
    expect(await decisionRows(turnId)).toMatchObject([
      {
        decision: "denied",
        source: "policy",
        toolName: "send_message",
        decidedBy: null,
        reason: expect.stringMatching(/^Forbidden by policy/),
      },
    ]);
  });

  it("B2 'requires approval' in the policy asks even for a tool that needs none, in auto mode", async () => {
    const desk = await deskWithTarget(server.url);
    await setPolicy(desk.client, { update_workstream_state: "requires_approval" });
    await setSecurity(desk, { securityMode: "auto" });
    const { turnId, last } = await turn(desk, "add a task: write the FAQ");
    expect(last).toBe("suspended");
    expect(await approvalRows(turnId)).toMatchObject([{ toolName: "update_workstream_state" }]);
  });

  it("B3 auto mode runs a tool that needs approval without asking, and says so in the audit", async () => {
    const desk = await deskWithTarget(server.url);
    await setSecurity(desk, { securityMode: "auto" });
    const { turnId, events, last } = await turn(desk, SEND);
    expect(last).toBe("ready");
    expect(textOf(events)).toContain("I sent the message to “Launch notes”.");
    expect(await messagesOf(desk.targetId)).toHaveLength(1);
    expect(await decisionRows(turnId)).toMatchObject([
      { decision: "approved", source: "mode", toolName: "send_message" },
    ]);
  });

  it("B4 allowlist mode runs the listed tools and asks for the rest", async () => {
    const desk = await deskWithTarget(server.url);
    const set = await setSecurity(desk, {
      securityMode: "allowlist",
      allowlist: ["send_message", "search_history"],
    });
    expect(set.body.security).toEqual({
      mode: "allowlist",
      allowlist: ["search_history", "send_message"],
    });
    const listed = await turn(desk, SEND);
    expect(listed.last).toBe("ready");
    expect(await decisionRows(listed.turnId)).toMatchObject([{ source: "mode" }]);
    // Listed and needing no approval: runs, and there is nothing to audit.
    const search = await turn(desk, "search history for launch");
    expect(search.last).toBe("ready");
    expect(await decisionRows(search.turnId)).toHaveLength(0);
    // Not listed: asks, though it needs no approval in ask mode.
    const task = await turn(desk, "add a task: write the FAQ");
    expect(task.last).toBe("suspended");
  });

  it("B5 ask mode (the default) asks only for the tools that need approval", async () => {
    const desk = await deskWithTarget(server.url);
    const described = await desk.client.json<{ security: unknown }>(
      `/api/workstreams/${desk.workstreamId}`,
    );
    expect(described.body.security).toEqual({ mode: "ask", allowlist: [] });
    expect((await turn(desk, "add a task: write the FAQ")).last).toBe("ready");
    expect((await turn(desk, SEND)).last).toBe("suspended");
  });

  it("B6 approve and remember: the same call runs without asking until the grant is revoked or expires", async () => {
    const desk = await deskWithTarget(server.url);
    const first = await turn(desk, SEND);
    const [approval] = await approvalRows(first.turnId);
    const approved = await answer(desk.client, desk, first.turnId, String(approval?.id), {
      approved: true,
      grantDays: 7,
    });
    expect(approved.status).toBe(200);
    await eventually(async () => (await turnRow(first.turnId))?.state === "completed");
    const listed = await desk.client.json<{
      grants: Array<{ id: string; toolName: string; approvalKey: string; expiresAt: string }>;
    }>(`/api/workstreams/${desk.workstreamId}/grants`);
    expect(listed.body.grants).toMatchObject([
      { toolName: "send_message", approvalKey: "launch notes" },
    ]);
    const grant = listed.body.grants[0];
    const days = (Date.parse(String(grant?.expiresAt)) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    // The same target: runs at once, audited as the grant's.
    const again = await turn(desk, "tell my Launch notes workstream: and one more thing");
    expect(again.last).toBe("ready");
    expect(await decisionRows(again.turnId)).toMatchObject([
      { decision: "approved", source: "grant", reason: grant?.id },
    ]);
    expect(await messagesOf(desk.targetId)).toHaveLength(2);
    // Another target is another key: it asks.
    await desk.client.json("/api/workstreams", {
      method: "POST",
      json: { mode: "group", title: "Board room" },
    });
    expect((await turn(desk, "tell my Board room workstream: hello")).last).toBe("suspended");
    await desk.client.fetch(`/api/workstreams/${desk.workstreamId}/stop`, { method: "POST" });

    // Expired: asks again.
    await (await getDb())
      .update(toolGrants)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(toolGrants.id, String(grant?.id)));
    const expired = await turn(desk, SEND);
    expect(expired.last).toBe("suspended");
    await desk.client.fetch(`/api/workstreams/${desk.workstreamId}/stop`, { method: "POST" });
  });

  it("B7 a revoked grant no longer applies; another's grant or an unknown one is a 404", async () => {
    const desk = await deskWithTarget(server.url);
    const first = await turn(desk, SEND);
    const [approval] = await approvalRows(first.turnId);
    await answer(desk.client, desk, first.turnId, String(approval?.id), {
      approved: true,
      grantDays: 1,
    });
    await eventually(async () => (await turnRow(first.turnId))?.state === "completed");
    const { body } = await desk.client.json<{ grants: Array<{ id: string }> }>(
      `/api/workstreams/${desk.workstreamId}/grants`,
    );
    const grantId = String(body.grants[0]?.id);
    const stranger = await deskWithTarget(server.url);
    const foreign = await stranger.client.fetch(
      `/api/workstreams/${stranger.workstreamId}/grants/${grantId}`,
      { method: "DELETE" },
    );
    expect(foreign.status).toBe(404);
    const revoked = await desk.client.fetch(
      `/api/workstreams/${desk.workstreamId}/grants/${grantId}`,
      { method: "DELETE" },
    );
    expect(revoked.status).toBe(200);
    const twice = await desk.client.json<{ error: { code: string } }>(
      `/api/workstreams/${desk.workstreamId}/grants/${grantId}`,
      { method: "DELETE" },
    );
    expect(twice.status).toBe(404);
    expect(twice.body.error.code).toBe("not_found:grant");
    expect((await turn(desk, SEND)).last).toBe("suspended");
  });

  it("B8 a policy that forbids the tool while its approval waits wins over the approval", async () => {
    const desk = await deskWithTarget(server.url);
    const first = await turn(desk, SEND);
    const suspendedAt = Math.max(...first.events.map((event) => event.offset ?? 0));
    await setPolicy(desk.client, { send_message: "forbidden" });
    const [approval] = await approvalRows(first.turnId);
    await answer(desk.client, desk, first.turnId, String(approval?.id), { approved: true });
    const followed = await followFrom(desk, suspendedAt);
    expect(statuses(followed.events).at(-1)).toBe("ready");
    const output = followed.events.find((event) => event.data.type === "tool-output-available");
    expect(output?.data.output).toMatchObject({ denied: true });
    expect(textOf(followed.events)).toContain("was not approved (“Forbidden by policy");
    expect(await messagesOf(desk.targetId)).toHaveLength(0);
    const sources = (await decisionRows(first.turnId)).map(
      (row) => `${row.source}:${row.decision}`,
    );
    expect(sources.sort()).toEqual(["policy:denied", "user:approved"]);
  });

  it("B9 bad settings are refused and write nothing", async () => {
    const desk = await deskWithTarget(server.url);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ securityMode: "yolo" }, "bad_request:security_mode"],
      [{ securityMode: "allowlist", allowlist: ["rm_rf"] }, "bad_request:tool"],
      [{ title: "Renamed", securityMode: "auto" }, "bad_request:validation"],
      [{}, "bad_request:validation"],
    ];
    for (const [body, code] of cases) {
      const response = await setSecurity(desk, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((response.body.error as { code: string }).code).toBe(code);
    }
    const described = await desk.client.json<{ security: unknown }>(
      `/api/workstreams/${desk.workstreamId}`,
    );
    expect(described.body.security).toEqual({ mode: "ask", allowlist: [] });
    const policy = await setPolicy(desk.client, { no_such_tool: "forbidden" });
    expect(policy.status).toBe(400);
    const view = await desk.client.json<{
      tools: Array<{ toolName: string; rule: string; asks: string }>;
    }>("/api/admin/tool-policy");
    expect(view.body.tools.every((tool) => tool.rule === "allowed")).toBe(true);
    expect(view.body.tools.find((tool) => tool.toolName === "send_message")?.asks).toBe("always");
    const denyGrant = await answer(desk.client, desk, "turn_x", "approval_x", {
      approved: false,
      grantDays: 7,
    });
    expect(denyGrant.status).toBe(400);
  });
});
