// Tool approvals through real turns on the offline model: a tool that needs approval suspends the
// turn (its run released, the workstream still taken), the owner's answer continues the same turn
// from what was kept, approved tools run once, denials reach the model, several approvals are
// asked in call order, Stop ends a suspended turn, and every decision is audited.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { jobs, messages, turns, workstreams } from "@/db/schema";
import { APPROVAL_EXPIRY_JOB_ID, approvalExpiry } from "@/inngest/functions/approval-expiry";
import { createEmbeddedRunner } from "@/inngest/runner";
import { argsHash } from "@/lib/approvals/hash";
import { drainJobsOnce } from "@/lib/jobs/port";
import { closeTurn } from "@/lib/turns/close-turn";
import { registerHook } from "@/lib/turns/hooks";
import { reapOrphanedTurns } from "@/lib/turns/lease";
import { runRegistry } from "@/lib/turns/run-registry";
import { wireDomains } from "@/root/wiring";
import { send, userMessage } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { messageText, readSse, statuses, textOf } from "../support/sse";
import {
  answer,
  approvalRows,
  decisionRows,
  deskWithTarget,
  eventually,
  followFrom,
  messagesOf,
  sendUntilSuspended,
  turnRow,
} from "./approvals-support";

const app = appHarness({ env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0" }, wire: wireDomains });

type Described = {
  isRunning: boolean;
  activeTurn: { id: string; state: string; resumedOffset: number | null } | null;
};

async function describe_(owner: {
  client: { json: <T>(path: string) => Promise<{ body: T }> };
  workstreamId: string;
}) {
  return (await owner.client.json<Described>(`/api/workstreams/${owner.workstreamId}`)).body;
}

describe("a tool that needs approval", () => {
  it("A1 suspends the turn: the stream ends with the request, the run is released, the workstream stays taken", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId, events, approvalIds } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: the launch moved to May",
    );
    expect(approvalIds).toHaveLength(1);
    const request = events.find((event) => event.data.type === "tool-approval-request");
    expect(request?.data.reason).toBe("You asked me to pass this on.");
    // Released: no registry entry, no lease, no owner process, no busy flag.
    expect(runRegistry.get(turnId)).toBeUndefined();
    const row = await turnRow(turnId);
    expect(row).toMatchObject({ state: "suspended", ownerId: null, leaseExpiresAt: null });
    const [ws] = await (await getDb())
      .select()
      .from(workstreams)
      .where(eq(workstreams.id, desk.workstreamId));
    expect(ws?.activeRunId).toBeNull();
    const described = await describe_(desk);
    expect(described.isRunning).toBe(false);
    expect(described.activeTurn).toMatchObject({ id: turnId, state: "suspended" });
    // Nothing ran: the target has no message yet.
    expect(await messagesOf(desk.targetId)).toHaveLength(0);
    // The kept answer holds the request, so a reload can show the card.
    const answerRow = (await messagesOf(desk.workstreamId)).find(
      (message) => message.role === "assistant",
    );
    const part = ((answerRow?.parts ?? []) as Array<Record<string, unknown>>).find(
      (item) => item.type === "tool-send_message",
    );
    expect(part).toMatchObject({
      state: "approval-requested",
      input: { workstreamId: "Launch notes", text: "the launch moved to May" },
      approval: { id: approvalIds[0], requestReason: "You asked me to pass this on." },
    });
    const [approval] = await approvalRows(turnId);
    expect(approval).toMatchObject({
      id: approvalIds[0],
      toolName: "send_message",
      state: "pending",
      position: 0,
      argsHash: argsHash({
        workstreamId: "Launch notes",
        text: "the launch moved to May",
        reason: "You asked me to pass this on.",
      }),
    });
  });

  it("A2 a new message meanwhile is 409 conflict:turn_active naming the pending approval", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId, approvalIds } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: draft the FAQ",
    );
    const blocked = await desk.client.json<{ error: Record<string, unknown> }>(
      `/api/workstreams/${desk.workstreamId}/messages`,
      { method: "POST", json: userMessage("are you there?") },
    );
    expect(blocked.status).toBe(409);
    expect(blocked.body.error).toMatchObject({
      code: "conflict:turn_active",
      turnId,
      state: "suspended",
      approvalId: approvalIds[0],
      toolName: "send_message",
    });
  });

  it("A3 approve continues the same turn from what was kept: the tool runs once and the turn completes", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId, approvalIds, events } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: the launch moved to May",
    );
    const suspendedAt = Math.max(...events.map((event) => event.offset ?? 0));
    const approved = await answer(desk.client, desk, turnId, String(approvalIds[0]), {
      approved: true,
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ state: "approved", continued: true, next: null });
    const followed = await followFrom(desk, suspendedAt);
    expect(statuses(followed.events).at(-1)).toBe("ready");
    expect(followed.events[0]?.data).toMatchObject({
      type: "tool-approval-response",
      approvalId: approvalIds[0],
      approved: true,
    });
    expect(textOf(followed.events)).toContain("I sent the message to “Launch notes”.");
    // The same turn, completed; its events continue after where it was suspended.
    const row = await turnRow(turnId);
    expect(row?.state).toBe("completed");
    expect(row?.resumedOffset).toBe(suspendedAt + 1);
    const ownTurns = await (await getDb())
      .select()
      .from(turns)
      .where(eq(turns.workstreamId, desk.workstreamId));
    expect(ownTurns).toHaveLength(1);
    // The tool ran exactly once: one message in the target, as the chief's, naming its source.
    const sent = await messagesOf(desk.targetId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ role: "assistant", turnId: null });
    expect(messageText(sent[0] as never)).toBe("the launch moved to May");
    expect(sent[0]?.metadata).toMatchObject({
      agentId: "chief",
      relayedFrom: { workstreamId: desk.workstreamId, agentId: "chief", title: "Chief" },
    });
    // No turn started there.
    const targetTurns = await (await getDb())
      .select()
      .from(turns)
      .where(eq(turns.workstreamId, desk.targetId));
    expect(targetTurns).toHaveLength(0);
    // One assistant message holds the whole turn: the call, its output and the answer after it.
    const history = await messagesOf(desk.workstreamId);
    expect(history.map((message) => message.role)).toEqual(["user", "assistant"]);
    const parts = history[1]?.parts as Array<Record<string, unknown>>;
    expect(parts.find((part) => part.type === "tool-send_message")).toMatchObject({
      state: "output-available",
      output: { sent: true, title: "Launch notes" },
      approval: { id: approvalIds[0], approved: true },
    });
    // Answering again does nothing: 409, and still one message in the target.
    const again = await answer(desk.client, desk, turnId, String(approvalIds[0]), {
      approved: true,
    });
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe("conflict:approval_answered");
    expect(await messagesOf(desk.targetId)).toHaveLength(1);
    // The workstream is free for the next message.
    const next = await send(desk, "[echo] thanks");
    expect(statuses((await readSse(next)).events).at(-1)).toBe("ready");
  });

  it("A4 deny: the model is told, acknowledges it, and nothing is sent", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId, approvalIds, events } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: cancel the launch",
    );
    const suspendedAt = Math.max(...events.map((event) => event.offset ?? 0));
    const denied = await answer(desk.client, desk, turnId, String(approvalIds[0]), {
      approved: false,
      reason: "not yet, wait for the board",
    });
    expect(denied.body).toMatchObject({ state: "denied", continued: true });
    const followed = await followFrom(desk, suspendedAt);
    expect(statuses(followed.events).at(-1)).toBe("ready");
    expect(followed.events.some((event) => event.data.type === "tool-output-denied")).toBe(true);
    expect(textOf(followed.events)).toContain("was not approved (“not yet, wait for the board”)");
    expect(await messagesOf(desk.targetId)).toHaveLength(0);
    expect((await turnRow(turnId))?.state).toBe("completed");
    const [decision] = await decisionRows(turnId);
    expect(decision).toMatchObject({
      decision: "denied",
      source: "user",
      reason: "not yet, wait for the board",
      decidedBy: desk.userId,
      toolName: "send_message",
    });
  });

  it("A5 several approvals in one step are asked in call order", async () => {
    const desk = await deskWithTarget(app.url);
    const call = (text: string) =>
      `[tool:send_message:${JSON.stringify({ workstreamId: "Launch notes", text })}]`;
    const { turnId, approvalIds } = await sendUntilSuspended(
      desk,
      `${call("first")} ${call("second")} send both`,
    );
    expect(approvalIds).toHaveLength(2);
    const [first, second] = approvalIds as [string, string];
    // The second cannot be answered before the first.
    const early = await answer(desk.client, desk, turnId, second, { approved: true });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: "conflict:approval_order", approvalId: first });
    const one = await answer(desk.client, desk, turnId, first, { approved: true });
    expect(one.body).toMatchObject({ continued: false, next: { approvalId: second } });
    // Still waiting: nothing ran yet, the turn is suspended.
    expect((await turnRow(turnId))?.state).toBe("suspended");
    expect(await messagesOf(desk.targetId)).toHaveLength(0);
    const two = await answer(desk.client, desk, turnId, second, { approved: false });
    expect(two.body).toMatchObject({ continued: true, next: null });
    await eventually(async () => (await turnRow(turnId))?.state === "completed");
    const sent = await messagesOf(desk.targetId);
    expect(sent.map((message) => messageText(message as never))).toEqual(["first"]);
    const decisions = await decisionRows(turnId);
    expect(decisions.map((row) => row.decision).sort()).toEqual(["approved", "denied"]);
  });

  it("A6 Stop cancels a suspended turn; its approval can no longer be answered", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId, approvalIds } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: hello",
    );
    const stop = await desk.client.json<{ state: string }>(
      `/api/workstreams/${desk.workstreamId}/stop`,
      { method: "POST", json: {} },
    );
    expect(stop.body).toEqual({ turnId, state: "cancelled" });
    const late = await answer(desk.client, desk, turnId, String(approvalIds[0]), {
      approved: true,
    });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({
      code: "conflict:approval_answered",
      state: "cancelled",
    });
    expect(await messagesOf(desk.targetId)).toHaveLength(0);
    expect((await approvalRows(turnId))[0]?.state).toBe("cancelled");
  });

  it("A7 bad answers: another's approval, a forged id, a wrong turn, malformed bodies write nothing", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId, approvalIds } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: hello",
    );
    const approvalId = String(approvalIds[0]);
    const stranger = await app.signUp("Stranger");
    const foreign = await answer(stranger.client, desk, turnId, approvalId, { approved: true });
    expect(foreign.status).toBe(404);
    const forged = await answer(desk.client, desk, turnId, "approval_forged", { approved: true });
    expect(forged.status).toBe(404);
    expect(forged.body.error?.code).toBe("not_found:approval");
    const otherTurn = await answer(desk.client, desk, "turn_other", approvalId, { approved: true });
    expect(otherTurn.status).toBe(404);
    for (const body of [{}, { approved: "yes" }, { approved: true, extra: 1 }]) {
      const bad = await answer(desk.client, desk, turnId, approvalId, body);
      expect(bad.status).toBe(400);
    }
    const long = await answer(desk.client, desk, turnId, approvalId, {
      approved: false,
      reason: "x".repeat(501),
    });
    expect(long.status).toBe(400);
    expect(long.body.error?.code).toBe("bad_request:too_long");
    expect((await approvalRows(turnId))[0]?.state).toBe("pending");
    expect(await decisionRows(turnId)).toHaveLength(0);
  });

  it("A8 two answers at once: one wins, the tool runs once", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId, approvalIds } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: only once",
    );
    const approvalId = String(approvalIds[0]);
    const results = await Promise.all([
      answer(desk.client, desk, turnId, approvalId, { approved: true }),
      answer(desk.client, desk, turnId, approvalId, { approved: true }),
      answer(desk.client, desk, turnId, approvalId, { approved: false }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409, 409]);
    await eventually(async () => (await turnRow(turnId))?.state === "completed");
    expect(await decisionRows(turnId)).toHaveLength(1);
    const winner = results.find((result) => result.status === 200)?.body.state;
    expect(await messagesOf(desk.targetId)).toHaveLength(winner === "approved" ? 1 : 0);
  });

  it("A9 a tool that needs no approval runs at once, with no approval row", async () => {
    const desk = await deskWithTarget(app.url);
    const response = await send(desk, "add a task: write the FAQ");
    const turnId = String(response.headers.get("x-turn-id"));
    const { events } = await readSse(response);
    expect(statuses(events).at(-1)).toBe("ready");
    expect(events.some((event) => event.data.type === "tool-approval-request")).toBe(false);
    expect(await approvalRows(turnId)).toHaveLength(0);
  });

  it("A10 send_message refuses an archived target, another member's workstream and this one, as tool errors", async () => {
    const desk = await deskWithTarget(app.url, "Old desk");
    await desk.client.fetch(`/api/workstreams/${desk.targetId}/archive`, { method: "POST" });
    const outsider = await deskWithTarget(app.url, "Private desk");
    const cases = [
      { target: "Old desk", error: "is archived" },
      { target: outsider.targetId, error: "No workstream of the member" },
      { target: "Chief", error: "That is this workstream" },
    ];
    for (const { target, error } of cases) {
      const { turnId, approvalIds, events } = await sendUntilSuspended(
        desk,
        `[tool:send_message:${JSON.stringify({ workstreamId: target, text: "hi" })}] go`,
      );
      const suspendedAt = Math.max(...events.map((event) => event.offset ?? 0));
      await answer(desk.client, desk, turnId, String(approvalIds[0]), { approved: true });
      const followed = await followFrom(desk, suspendedAt);
      const failure = followed.events.find((event) => event.data.type === "tool-output-error");
      expect(String(failure?.data.errorText), target).toContain(error);
      expect(statuses(followed.events).at(-1)).toBe("ready");
    }
    expect(await messagesOf(desk.targetId)).toHaveLength(0);
    expect(await messagesOf(outsider.targetId)).toHaveLength(0);
    const [row] = await (await getDb())
      .select()
      .from(workstreams)
      .where(and(eq(workstreams.id, outsider.targetId)));
    expect(row?.unreadSince).toBeNull();
  });

  it("A11 an unanswered approval expires through a delayed job: the model is told, the turn completes", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId, approvalIds, events } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: ship it",
    );
    const suspendedAt = Math.max(...events.map((event) => event.offset ?? 0));
    const [approval] = await approvalRows(turnId);
    const deadline = approval?.expiresAt.getTime() ?? 0;
    // 24 hours by default (WORKSTREAMS_APPROVAL_TIMEOUT).
    expect(deadline - (approval?.createdAt.getTime() ?? 0)).toBeGreaterThan(86_400_000 - 5_000);
    // The expiry is a job of the engine, due at the deadline.
    await drainJobsOnce();
    const job = await eventually(async () => {
      const rows = await (await getDb())
        .select()
        .from(jobs)
        .where(eq(jobs.functionId, APPROVAL_EXPIRY_JOB_ID));
      return rows.find((row) => (row.event as { data: { turnId: string } }).data.turnId === turnId);
    });
    expect(job.runAt.getTime()).toBe(deadline);
    expect(job.event).toMatchObject({ data: { approvalIds } });
    // A runner whose clock stands before the deadline leaves it alone; at the deadline it runs.
    let now = deadline - 1_000;
    const runner = createEmbeddedRunner({
      functions: [approvalExpiry],
      clock: { now: () => now },
      processId: "approval-expiry-test",
    });
    try {
      await runner.runDue();
      expect((await approvalRows(turnId))[0]?.state).toBe("pending");
      now = deadline + 1_000;
      await runner.runDue();
    } finally {
      await runner.stop();
    }
    expect((await approvalRows(turnId))[0]?.state).toBe("expired");
    const followed = await followFrom(desk, suspendedAt);
    expect(statuses(followed.events).at(-1)).toBe("ready");
    expect(textOf(followed.events)).toContain("was not approved (“Nobody answered");
    expect((await turnRow(turnId))?.state).toBe("completed");
    expect(await messagesOf(desk.targetId)).toHaveLength(0);
    const [decision] = await decisionRows(turnId);
    expect(decision).toMatchObject({ decision: "denied", source: "timeout", decidedBy: null });
    // Answering after the expiry is refused.
    const late = await answer(desk.client, desk, turnId, String(approvalIds[0]), {
      approved: true,
    });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "conflict:approval_answered", state: "expired" });
  });

  it("A12 a guard hook sees the approved call and its denial wins; both decisions are audited", async () => {
    const unregister = registerHook({
      kind: "guard",
      stage: "TOOL_CALL",
      name: "no-outreach-on-fridays",
      run: ({ toolName }) =>
        toolName === "send_message" ? { allow: false, reason: "quiet day" } : { allow: true },
    });
    try {
      const desk = await deskWithTarget(app.url);
      const { turnId, approvalIds, events } = await sendUntilSuspended(
        desk,
        "tell my Launch notes workstream: guarded",
      );
      const suspendedAt = Math.max(...events.map((event) => event.offset ?? 0));
      await answer(desk.client, desk, turnId, String(approvalIds[0]), { approved: true });
      const followed = await followFrom(desk, suspendedAt);
      const refused = followed.events.find((event) => event.data.type === "tool-output-error");
      expect(String(refused?.data.errorText)).toContain("Denied: quiet day");
      expect(statuses(followed.events).at(-1)).toBe("ready");
      expect(await messagesOf(desk.targetId)).toHaveLength(0);
      const decisions = await decisionRows(turnId);
      expect(
        decisions.map(({ decision, source, reason }) => ({ decision, source, reason })),
      ).toEqual(
        expect.arrayContaining([
          { decision: "approved", source: "user", reason: null },
          { decision: "denied", source: "guard", reason: "no-outreach-on-fridays" },
        ]),
      );
      expect(new Set(decisions.map((row) => row.argsHash)).size).toBe(1);
    } finally {
      unregister();
    }
  });

  it("A13 arguments that no longer fit the tool's schema after approval are an error result, not a crash", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId, approvalIds, events } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: valid today",
    );
    const suspendedAt = Math.max(...events.map((event) => event.offset ?? 0));
    // As if the tool's schema had changed while the turn waited: the kept call no longer fits.
    const db = await getDb();
    const row = (await messagesOf(desk.workstreamId)).find(
      (message) => message.role === "assistant",
    );
    const parts = ((row?.parts ?? []) as Array<Record<string, unknown>>).map((part) =>
      part.type === "tool-send_message"
        ? { ...part, input: { ...(part.input as object), text: "" } }
        : part,
    );
    await db
      .update(messages)
      .set({ parts })
      .where(and(eq(messages.workstreamId, desk.workstreamId), eq(messages.id, String(row?.id))));
    await answer(desk.client, desk, turnId, String(approvalIds[0]), { approved: true });
    const followed = await followFrom(desk, suspendedAt);
    expect(followed.events.some((event) => event.data.type === "tool-output-error")).toBe(true);
    expect(statuses(followed.events).at(-1)).toBe("ready");
    expect(await messagesOf(desk.targetId)).toHaveLength(0);
    expect((await turnRow(turnId))?.state).toBe("completed");
  });

  it("R6 A3 the process taking an approved turn back never reaps it as a failed close while it reads it back", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId, approvalIds, events } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: the reaper keeps out",
    );
    const suspendedAt = Math.max(...events.map((event) => event.offset ?? 0));
    // This process's reaper runs without pause while the answer commits and the turn goes on:
    // between the commit that makes this process the owner and the run's start it must hold off.
    let answering = true;
    const reaped: string[] = [];
    const reaper = (async () => {
      while (answering || (await turnRow(turnId))?.state === "active") {
        reaped.push(...(await reapOrphanedTurns()));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const approved = await answer(desk.client, desk, turnId, String(approvalIds[0]), {
      approved: true,
    });
    answering = false;
    await reaper;
    expect(approved.body).toMatchObject({ state: "approved", continued: true });
    expect(reaped).toEqual([]);
    const followed = await followFrom(desk, suspendedAt);
    const last = followed.events.filter((event) => event.data.type === "data-status").at(-1);
    expect(last?.data.data).toEqual({ state: "ready", turnId });
    expect((await turnRow(turnId))?.state).toBe("completed");
    expect(await messagesOf(desk.targetId)).toHaveLength(1);
  });

  it("R6 A1 a reaper's close decided while the turn ran leaves it alone once it is suspended", async () => {
    const desk = await deskWithTarget(app.url);
    const { turnId } = await sendUntilSuspended(desk, "tell my Launch notes workstream: hold on");
    const row = await turnRow(turnId);
    // As a reaper that read the turn while it ran, and closes it after it was suspended.
    const { closed } = await closeTurn({
      turn: { id: turnId, workstreamId: desk.workstreamId, serverRunId: row?.serverRunId ?? null },
      end: { state: "failed", reason: "reaped", errorCode: "internal:server_restarted" },
      events: [],
      ownerCheck: false,
      reap: true,
    });
    expect(closed).toBe(false);
    expect((await turnRow(turnId))?.state).toBe("suspended");
  });
});
