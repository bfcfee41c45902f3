// The turn inspector's API through real turns on the real OpenAI provider against a fake server:
// one turn with two failed calls (a retry, then the fallback), a tool call that waits for the
// owner's approval, the approved call running, and a stop; the owner sees its timeline with the
// content of the call, an admin the same record without any content, another organization
// nothing. A completed turn lists the post-turn jobs it caused.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getOrganizationUsage } from "@/lib/admin/usage";
import type { TurnInspection } from "@/lib/inspector/types";
import { turnCompleted } from "@/lib/jobs/events";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { wireTurnTools } from "@/root/wiring";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";
import { send } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { readSse } from "../support/sse";
import {
  answer,
  deskWithTarget,
  eventually,
  sendUntilSuspended,
  turnRow,
} from "./approvals-support";
import { sendTo } from "./workstreams-support/helpers";

const MARKER = "zebra-quartz-7781";
const ENV = {
  OPENAI_API_KEY: "sk-test",
  OPENAI_MODEL: "gpt-4.1-mini",
  OPENAI_FALLBACK_MODEL: "gpt-4.1-nano",
  MODEL_RETRY_BASE_MS: "5",
  MODEL_ATTEMPTS: "2",
  MODEL_FIRST_TOKEN_TIMEOUT_MS: "2000",
};

const app = appHarness({ wire: wireTurnTools });
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
beforeEach(() => {
  Object.assign(process.env, ENV, { OPENAI_BASE_URL: fake.url });
  fake.plans = [];
  fake.requests.length = 0;
});
afterEach(() => {
  for (const key of [...Object.keys(ENV), "OPENAI_BASE_URL"]) delete process.env[key];
});
afterAll(async () => {
  await fake?.close();
});

describe("the turn inspector", () => {
  it("shows the owner a turn's retry, fallback, approved tool call and stop; an admin the same without content; another organization nothing", async () => {
    const desk = await deskWithTarget(app.url);
    const call = { workstreamId: "Launch notes", text: `the code is ${MARKER}`, reason: "Asked." };
    fake.plans = [
      { kind: "fail", status: 500 },
      { kind: "fail", status: 503 },
      { kind: "tool", name: "send_message", args: call },
      { kind: "text", text: "A long and slow answer. ".repeat(60), delayMs: 40 },
    ];
    const { turnId, approvalIds } = await sendUntilSuspended(desk, `pass on ${MARKER}`);
    const approved = await answer(desk.client, desk, turnId, String(approvalIds[0]), {
      approved: true,
    });
    expect(approved.status).toBe(200);
    // Stop once the continuation's model call is under way.
    await eventually(async () => fake.requests.length >= 4);
    const stop = await desk.client.json<{ state: string }>(
      `/api/workstreams/${desk.workstreamId}/stop`,
      { method: "POST", json: {} },
    );
    expect(stop.status).toBe(200);
    await eventually(async () => (await turnRow(turnId))?.state === "cancelled");

    const owner = await desk.client.json<TurnInspection>(
      `/api/workstreams/${desk.workstreamId}/turns/${turnId}`,
    );
    expect(owner.status).toBe(200);
    const record = owner.body;
    expect(record.turn).toMatchObject({
      id: turnId,
      state: "cancelled",
      errorCode: "turn:stopped",
      reason: ERROR_SENTENCES["turn:stopped"],
    });
    // Two runs: the first waited for the approval, the second was stopped.
    expect(record.runs.map((run) => run.state)).toEqual(["suspended", "cancelled"]);
    const [first, second] = record.runs;
    expect(first?.stages.map((stage) => stage.stage)).toEqual([
      "RECEIVE_INPUT",
      "COMPOSE_REQUEST",
      "SEND_REQUEST",
      "STREAM_RESPONSE",
      "RENDER",
    ]);
    for (const stage of first?.stages ?? []) expect(stage.ms).toBeGreaterThanOrEqual(0);
    expect(second?.stages.map((stage) => stage.stage)).toContain("TOOL_CALL");
    expect(second?.stages.at(-1)?.stage).toBe("RENDER");
    // The first run's model step asked for the tool, with its usage and cost.
    expect(first?.steps).toEqual([
      expect.objectContaining({
        modelId: "gpt-4.1-nano",
        finishReason: "tool-calls",
        usage: expect.objectContaining({ inputTokens: 120, outputTokens: 30 }),
      }),
    ]);
    // A retry of the primary, then the fallback; the call that streamed has its first token.
    expect(record.attempts.slice(0, 3)).toEqual([
      expect.objectContaining({ modelId: "gpt-4.1-mini", outcome: "failed", retry: false }),
      expect.objectContaining({ modelId: "gpt-4.1-mini", outcome: "failed", retry: true }),
      expect.objectContaining({ modelId: "gpt-4.1-nano", outcome: "ok", fallback: true }),
    ]);
    expect(record.attempts[2]?.firstTokenMs).toEqual(expect.any(Number));
    expect(record.attempts[2]?.durationMs).toEqual(expect.any(Number));
    // The tool call: approved by the member, run, timed; the owner sees its arguments.
    expect(record.tools).toEqual([
      expect.objectContaining({
        toolName: "send_message",
        status: "ok",
        ms: expect.any(Number),
        approval: expect.objectContaining({ decision: "approved", source: "user" }),
        input: expect.objectContaining({ text: `the code is ${MARKER}` }),
      }),
    ]);
    // The stopped call never reported its counts: the turn's total is unknown, not the first
    // step's alone.
    expect(record.usage).toBeNull();
    expect(record.costUsd).toBeNull();
    expect(record.specialists).toEqual([]);
    expect(record.content).toBe(true);

    const admin = await desk.client.fetch(
      `/api/admin/workstreams/${desk.workstreamId}/turns/${turnId}`,
    );
    expect(admin.status).toBe(200);
    const text = await admin.text();
    expect(text).not.toContain(MARKER);
    const metadata = JSON.parse(text) as TurnInspection;
    expect(metadata.content).toBe(false);
    expect(metadata.runs).toEqual(record.runs);
    expect(metadata.attempts).toEqual(record.attempts);
    expect(metadata.tools).toEqual([
      {
        toolCallId: record.tools[0]?.toolCallId,
        toolName: "send_message",
        status: "ok",
        ms: record.tools[0]?.ms,
        approval: {
          decision: "approved",
          source: "user",
          decidedAt: record.tools[0]?.approval?.decidedAt,
        },
      },
    ]);

    // The usage page counts the stopped turn as unknown usage, not as free.
    expect(await getOrganizationUsage({ organizationId: desk.organizationId })).toEqual([
      expect.objectContaining({ turns: 1, unknownTurns: 1, inputTokens: 0, costUsd: null }),
    ]);

    const outsider = await app.signUp("Inspector Outsider");
    for (const path of [
      `/api/workstreams/${desk.workstreamId}/turns/${turnId}`,
      `/api/admin/workstreams/${desk.workstreamId}/turns/${turnId}`,
    ]) {
      const response = await outsider.client.json<{ error: { code: string } }>(path);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("not_found:workstream");
    }
    const unknown = await desk.client.json<{ error: { code: string } }>(
      `/api/workstreams/${desk.workstreamId}/turns/turn_nope`,
    );
    expect(unknown.body.error.code).toBe("not_found:turn");
  });

  it("lists the post-turn jobs a completed turn caused", async () => {
    const desk = await deskWithTarget(app.url, "Jobs target");
    fake.plans = [{ kind: "text", text: "Done." }];
    const response = await send(desk, "say done");
    const turnId = String(response.headers.get("x-turn-id"));
    await readSse(response);
    const { body } = await desk.client.json<TurnInspection>(
      `/api/workstreams/${desk.workstreamId}/turns/${turnId}`,
    );
    expect(body.turn.state).toBe("completed");
    expect(body.jobs).toEqual([
      expect.objectContaining({ name: turnCompleted.name, eventId: expect.any(String) }),
    ]);
    expect(body.runs[0]?.stages.map((stage) => stage.stage)).toEqual([
      "RECEIVE_INPUT",
      "COMPOSE_REQUEST",
      "SEND_REQUEST",
      "STREAM_RESPONSE",
      "RENDER",
    ]);
    const [usage] = await getOrganizationUsage({ organizationId: desk.organizationId });
    expect(usage).toMatchObject({ turns: 1, unknownTurns: 0, inputTokens: 120, outputTokens: 30 });
    expect(usage?.costUsd).toBeGreaterThan(0);
    expect(usage?.member).toBe("Approval Tester");
  });

  it("shows a specialist consultation: the owner with its question, an admin without", async () => {
    // The offline model consults; the fake provider is not needed here.
    for (const key of [...Object.keys(ENV), "OPENAI_BASE_URL"]) delete process.env[key];
    const desk = await deskWithTarget(app.url, "Consult target");
    const question = `weigh ${MARKER}`;
    const response = await sendTo(
      desk.client,
      desk.targetId,
      `[tool:consult_specialist:{"specialist":"analyst","question":"${question}"}]`,
    );
    const turnId = String(response.headers.get("x-turn-id"));
    await readSse(response);
    const owner = await desk.client.json<TurnInspection>(
      `/api/workstreams/${desk.targetId}/turns/${turnId}`,
    );
    expect(owner.body.specialists).toEqual([
      expect.objectContaining({
        specialist: "Analyst",
        status: "done",
        steps: expect.any(Number),
        ms: expect.any(Number),
        question,
      }),
    ]);
    const admin = await desk.client.fetch(
      `/api/admin/workstreams/${desk.targetId}/turns/${turnId}`,
    );
    const text = await admin.text();
    expect(text).not.toContain(MARKER);
    const [consulted] = (JSON.parse(text) as TurnInspection).specialists;
    expect(consulted).toMatchObject({ specialist: "Analyst", status: "done" });
    expect(consulted).not.toHaveProperty("question");
    expect(consulted).not.toHaveProperty("answer");
  });
});
