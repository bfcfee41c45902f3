// Models and resilience (seeds 000, 002, 003, 004) through the real @ai-sdk/openai provider
// against a fake OpenAI-compatible server: usage and cost, retries and fallback, a failure
// after partial text, the step bound, a throwing tool, hooks, the rate limit, timeouts.
import { tool } from "ai";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/db/client";
import { turns } from "@/db/schema";
import type { AdminTurn } from "@/lib/admin/workstreams";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { type BusEvent, bus } from "@/lib/turns/bus";
import { registerHook } from "@/lib/turns/hooks";
import { type AppServer, startAppServer } from "../support/app-server";
import { type FakeOpenAI, type Plan, startFakeOpenAI } from "../support/fake-openai";
import { send, userWithWorkstream } from "../support/fixtures";
import { messageText, readSse, type SseEvent, statuses } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

let testDb: TestDatabase;
let server: AppServer;
let fake: FakeOpenAI;
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  testDb = await useTestDatabase();
  server = await startAppServer();
  fake = await startFakeOpenAI();
});
beforeEach(() => {
  Object.assign(process.env, {
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: fake.url,
    OPENAI_MODEL: "gpt-4.1-mini",
    OPENAI_FALLBACK_MODEL: "gpt-4.1-nano",
    MODEL_RETRY_BASE_MS: "5",
    MODEL_FIRST_TOKEN_TIMEOUT_MS: "2000",
  });
  fake.plans = [];
  fake.requests.length = 0;
  fake.violations.length = 0;
  fake.fallbackPlan = { kind: "text", text: "Hello from the fake model." };
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  delete process.env.WORKSTREAMS_RATE_LIMIT_TURNS;
  delete process.env.MODEL_ATTEMPTS;
  // Every streaming request asked for usage (stream_options.include_usage).
  expect(fake.violations).toEqual([]);
});
afterAll(async () => {
  for (const key of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_FALLBACK_MODEL"])
    delete process.env[key];
  await fake?.close();
  await server?.close();
  await releaseTestDatabase(testDb);
});

type Page = {
  messages: Array<{
    role: string;
    parts: Array<{ type: string; text?: string; state?: string }>;
    metadata: Record<string, unknown>;
  }>;
};

type ErrorStatus = {
  code?: string;
  message?: string;
  providerStatus?: number;
  providerErrorType?: string;
  hook?: string;
};

function errorStatus(events: SseEvent[]): ErrorStatus {
  const event = events.find(
    (item) =>
      item.data.type === "data-status" && (item.data.data as { state: string }).state === "error",
  );
  return (event?.data.data ?? {}) as ErrorStatus;
}

function errorText(events: SseEvent[]): string | undefined {
  const event = events.find((item) => item.data.type === "error");
  return event ? String(event.data.errorText) : undefined;
}

async function turnRow(turnId: string | null) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(turns)
    .where(eq(turns.id, turnId ?? ""));
  return row;
}

async function sendAndRead(text: string) {
  const owner = await userWithWorkstream(server.url);
  const response = await send(owner, text);
  expect(response.status).toBe(200);
  const turnId = response.headers.get("x-turn-id");
  const { events } = await readSse(response);
  const page = (await owner.client.json<Page>(`/api/workstreams/${owner.workstreamId}/messages`))
    .body;
  return {
    owner,
    turnId,
    events,
    page,
    assistant: page.messages.find((message) => message.role === "assistant"),
  };
}

describe("providers", () => {
  it("a whole turn runs through the real OpenAI provider, with usage and cost on the message and the turn", async () => {
    fake.plans = [{ kind: "text", text: "The answer is forty-two, said the fake model." }];
    const { events, assistant, turnId } = await sendAndRead("What is the answer?");
    expect(statuses(events).at(-1)).toBe("ready");
    expect(messageText(assistant ?? { parts: [] })).toBe(
      "The answer is forty-two, said the fake model.",
    );
    expect(assistant?.metadata).toMatchObject({
      model: "gpt-4.1-mini",
      inputTokens: 120,
      outputTokens: 30,
    });
    expect(assistant?.metadata.costUsd).toBeCloseTo((120 * 0.4 + 30 * 1.6) / 1e6, 10);
    const row = await turnRow(turnId);
    expect(row?.costUsd).toBeCloseTo((120 * 0.4 + 30 * 1.6) / 1e6, 10);
    expect(row?.usage).toMatchObject({ inputTokens: 120, outputTokens: 30 });
    expect(fake.requests[0]?.model).toBe("gpt-4.1-mini");
  });

  it("an unreachable model server is a clear error in the turn, not a hang", async () => {
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    process.env.MODEL_ATTEMPTS = "1";
    try {
      const { events } = await sendAndRead("Anyone there?");
      const error = errorStatus(events);
      expect(error.code).toBe("model:unreachable");
    } finally {
      delete process.env.MODEL_ATTEMPTS;
    }
  });

  it("a server that never answers hits the first-token timeout", async () => {
    process.env.MODEL_FIRST_TOKEN_TIMEOUT_MS = "300";
    process.env.MODEL_ATTEMPTS = "1";
    fake.fallbackPlan = { kind: "silent" };
    try {
      const { events } = await sendAndRead("Hello?");
      const error = errorStatus(events);
      expect(error.code).toBe("model:timeout");
    } finally {
      delete process.env.MODEL_ATTEMPTS;
    }
  });
});

describe("R4 E6 retries and fallback", () => {
  it("a model that fails twice then succeeds is retried; each attempt is recorded on the turn", async () => {
    fake.plans = [
      { kind: "fail", status: 500 },
      { kind: "fail", status: 503 },
      { kind: "text", text: "Third time lucky." },
    ];
    const { events, assistant, turnId } = await sendAndRead("Try hard");
    expect(statuses(events).at(-1)).toBe("ready");
    expect(messageText(assistant ?? { parts: [] })).toBe("Third time lucky.");
    const attempts = (await turnRow(turnId))?.attempts as Array<{
      outcome: string;
      modelId: string;
    }>;
    expect(attempts.map((attempt) => attempt.outcome)).toEqual(["failed", "failed", "ok"]);
  });

  it("after three failures the fallback model answers", async () => {
    fake.plans = [
      { kind: "fail", status: 500 },
      { kind: "fail", status: 500 },
      { kind: "fail", status: 500 },
      { kind: "text", text: "The fallback speaking." },
    ];
    const { events, assistant } = await sendAndRead("Fall back");
    expect(statuses(events).at(-1)).toBe("ready");
    expect(fake.requests.map((request) => request.model)).toEqual([
      "gpt-4.1-mini",
      "gpt-4.1-mini",
      "gpt-4.1-mini",
      "gpt-4.1-nano",
    ]);
    expect(assistant?.metadata.model).toBe("gpt-4.1-nano");
  });

  it("a failure after partial text fails the turn without a retry and keeps the partial answer", async () => {
    fake.plans = [{ kind: "text-then-drop", text: "Here is the beginning of a long answer that" }];
    const { events, assistant } = await sendAndRead("Go");
    expect(statuses(events).at(-1)).toBe("error");
    expect(fake.requests).toHaveLength(1);
    expect(messageText(assistant ?? { parts: [] })).toBe(
      "Here is the beginning of a long answer that",
    );
    expect(assistant?.metadata.failed).toBe(true);
  });
});

describe("the tool loop", () => {
  it("M7 E2 reaching the step bound ends the turn with an explicit error", async () => {
    fake.fallbackPlan = { kind: "tool", name: "current_time", args: {} };
    const { events } = await sendAndRead("Loop forever");
    const error = errorStatus(events);
    expect(error.code).toBe("turn:step_limit");
    expect(error.message).toBe(ERROR_SENTENCES["turn:step_limit"]);
    expect(error.message).toMatch(/earlier tool calls may have completed/i);
    expect(fake.requests).toHaveLength(20);
  });

  it("E7 a tool that throws becomes an error result the model sees; the turn goes on", async () => {
    cleanups.push(
      registerHook({
        kind: "resolveAgent",
        name: "add-exploding-tool",
        run: ({ resolved }) => ({
          ...resolved,
          tools: {
            ...resolved.tools,
            explode: tool({
              description: "Always fails",
              inputSchema: z.object({}),
              execute: async (): Promise<string> => {
                throw new Error("kaboom");
              },
            }),
          },
        }),
      }),
    );
    fake.plans = [
      { kind: "tool", name: "explode", args: {} },
      { kind: "text", text: "The tool failed, so here is my best answer." },
    ];
    const { events, assistant } = await sendAndRead("Use the tool");
    expect(statuses(events)).toContain("tool");
    expect(statuses(events).at(-1)).toBe("ready");
    expect(JSON.stringify(fake.requests[1]?.messages)).toContain("kaboom");
    expect(
      assistant?.parts.some(
        (part) => part.type === "tool-explode" && part.state === "output-error",
      ),
    ).toBe(true);
  });
});

describe("M1 hooks and M8 events", () => {
  it("a transform hook rewrites the input before it is persisted", async () => {
    cleanups.push(
      registerHook({
        kind: "transform",
        stage: "RECEIVE_INPUT",
        name: "shout",
        run: ({ message }) => ({
          message: {
            ...message,
            parts: message.parts.map((part) =>
              part.type === "text" ? { ...part, text: part.text.toUpperCase() } : part,
            ),
          },
        }),
      }),
    );
    const { page } = await sendAndRead("please be loud");
    expect(messageText(page.messages[0] ?? { parts: [] })).toBe("PLEASE BE LOUD");
    expect(JSON.stringify(fake.requests[0]?.messages)).toContain("PLEASE BE LOUD");
  });

  it("a guard that refuses the input answers 403 forbidden:guard and persists nothing", async () => {
    cleanups.push(
      registerHook({
        kind: "guard",
        stage: "RECEIVE_INPUT",
        name: "no-secrets",
        run: ({ message }) =>
          JSON.stringify(message.parts).includes("password")
            ? { allow: false, reason: "no passwords here" }
            : { allow: true },
      }),
    );
    const owner = await userWithWorkstream(server.url);
    const response = await owner.client.json<{ error: { code: string } }>(
      `/api/workstreams/${owner.workstreamId}/messages`,
      {
        method: "POST",
        json: {
          message: {
            id: "m_guard",
            role: "user",
            parts: [{ type: "text", text: "my password is hunter2" }],
          },
        },
      },
    );
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe("forbidden:guard");
    const page = (await owner.client.json<Page>(`/api/workstreams/${owner.workstreamId}/messages`))
      .body;
    expect(page.messages).toHaveLength(0);
    expect(fake.requests).toHaveLength(0);
  });

  it("S2c a guard refusing at COMPOSE_REQUEST fails the turn with guard:refused, naming the hook but not its reason", async () => {
    cleanups.push(
      registerHook({
        kind: "guard",
        stage: "COMPOSE_REQUEST",
        name: "closed",
        run: () => ({ allow: false, reason: "closed for maintenance" }),
      }),
    );
    const { events, turnId } = await sendAndRead("hello");
    const error = errorStatus(events);
    expect(error).toMatchObject({
      code: "guard:refused",
      message: ERROR_SENTENCES["guard:refused"],
      hook: "closed",
    });
    expect(fake.requests).toHaveLength(0);
    const row = await turnRow(turnId);
    expect(row?.reason).toBe(ERROR_SENTENCES["guard:refused"]);
    for (const seen of [events, row]) {
      expect(JSON.stringify(seen)).not.toContain("closed for maintenance");
    }
  });

  it("an observer records the rendered message, and the bus carries stage, session and provider events", async () => {
    const rendered: string[] = [];
    const seen: BusEvent["type"][] = [];
    cleanups.push(
      registerHook({
        kind: "observer",
        stage: "RENDER",
        name: "recorder",
        run: ({ message }) => {
          if (message) rendered.push(messageText(message));
        },
      }),
      bus.on((event) => seen.push(event.type)),
    );
    fake.plans = [{ kind: "text", text: "Observed answer." }];
    await sendAndRead("observe me");
    expect(rendered).toEqual(["Observed answer."]);
    // The client may read the closing event a moment before the engine announces the end.
    await expect.poll(() => seen.includes("SessionTurnEnd")).toBe(true);
    for (const type of [
      "SessionTurnStart",
      "StagePreFired",
      "StagePostFired",
      "ProviderRequestStarted",
      "ProviderTokensStreamed",
      "ProviderRequestCompleted",
      "SessionTurnEnd",
    ] as const) {
      expect(seen).toContain(type);
    }
  });
});

describe("rate limit", () => {
  it("too many turns in the window get 429 rate_limit:turn with Retry-After", async () => {
    process.env.WORKSTREAMS_RATE_LIMIT_TURNS = "2";
    const owner = await userWithWorkstream(server.url);
    for (let i = 0; i < 2; i++) await readSse(await send(owner, `turn ${i}`));
    const response = await send(owner, "one too many");
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await response.json()) as { error: { code: string } };
    expect(body.error.code).toBe("rate_limit:turn");
  });
});

describe("S12 provider failures by error class", () => {
  // The provider's body carries text only the server may see (it can quote the request or key).
  const SECRET = "PROVIDER-BODY-SECRET sk-live-do-not-show";
  const cases: Array<{
    name: string;
    plan: Plan;
    code: keyof typeof ERROR_SENTENCES;
    providerStatus?: number;
    providerErrorType?: string;
  }> = [
    {
      name: "401 is model:auth naming OPENAI_API_KEY",
      plan: {
        kind: "fail",
        status: 401,
        message: `Incorrect API key ${SECRET}`,
        type: "invalid_request_error",
      },
      code: "model:auth",
      providerStatus: 401,
      providerErrorType: "invalid_request_error",
    },
    {
      name: "403 is model:forbidden",
      plan: {
        kind: "fail",
        status: 403,
        message: `Not allowed ${SECRET}`,
        type: "permission_error",
      },
      code: "model:forbidden",
      providerStatus: 403,
      providerErrorType: "permission_error",
    },
    {
      name: "404 (an unknown model) is model:not_found",
      plan: {
        kind: "fail",
        status: 404,
        message: `The model gpt-nope does not exist ${SECRET}`,
        type: "invalid_request_error",
      },
      code: "model:not_found",
      providerStatus: 404,
      providerErrorType: "invalid_request_error",
    },
    {
      name: "429 is model:rate_limit",
      plan: {
        kind: "fail",
        status: 429,
        message: `Slow down ${SECRET}`,
        type: "rate_limit_exceeded",
      },
      code: "model:rate_limit",
      providerStatus: 429,
      providerErrorType: "rate_limit_exceeded",
    },
    {
      name: "5xx is model:unavailable",
      plan: { kind: "fail", status: 502, message: `Bad gateway ${SECRET}`, type: "server_error" },
      code: "model:unavailable",
      providerStatus: 502,
      providerErrorType: "server_error",
    },
    {
      name: "a dropped connection is model:unreachable",
      plan: { kind: "reset" },
      code: "model:unreachable",
    },
    {
      name: "a server that never answers is model:timeout",
      plan: { kind: "silent" },
      code: "model:timeout",
    },
  ];

  for (const { name, plan, code, providerStatus, providerErrorType } of cases) {
    it(`S12 ${name}; the client and the turn row get the sentence, never the provider's body`, async () => {
      process.env.MODEL_ATTEMPTS = "1";
      process.env.MODEL_FIRST_TOKEN_TIMEOUT_MS = "300";
      fake.fallbackPlan = plan; // the fallback model fails the same way
      const { events, turnId, page, owner } = await sendAndRead("Hello?");
      const error = errorStatus(events);
      expect(error).toMatchObject({ code, message: ERROR_SENTENCES[code] });
      expect(error.providerStatus).toBe(providerStatus);
      expect(error.providerErrorType).toBe(providerErrorType);
      expect(errorText(events)).toBe(ERROR_SENTENCES[code]);
      if (code === "model:auth") expect(error.message).toContain("OPENAI_API_KEY");
      const row = await turnRow(turnId);
      expect(row).toMatchObject({
        state: "failed",
        errorCode: code,
        reason: ERROR_SENTENCES[code],
      });
      const runs = await owner.client.json<{ runs: AdminTurn[] }>(
        `/api/admin/workstreams/${owner.workstreamId}`,
      );
      expect(runs.status).toBe(200);
      expect(runs.body.runs[0]?.reason).toBe(ERROR_SENTENCES[code]);
      for (const seen of [events, row, page, runs.body]) {
        expect(JSON.stringify(seen)).not.toContain("PROVIDER-BODY-SECRET");
        expect(JSON.stringify(seen)).not.toContain("sk-live");
      }
    });
  }

  it("S2c an error thrown below the provider is turn:failed, without its message", async () => {
    cleanups.push(
      registerHook({
        kind: "resolveAgent",
        name: "broken-store",
        run: () => {
          throw new Error('insert into "turn_events" values ($1) params: ws_other_tenant,secret');
        },
      }),
    );
    const { events, turnId } = await sendAndRead("hello");
    expect(errorStatus(events)).toMatchObject({
      code: "turn:failed",
      message: ERROR_SENTENCES["turn:failed"],
    });
    const row = await turnRow(turnId);
    expect(row?.reason).toBe(ERROR_SENTENCES["turn:failed"]);
    for (const seen of [events, row]) {
      expect(JSON.stringify(seen)).not.toContain("ws_other_tenant");
      expect(JSON.stringify(seen)).not.toContain("turn_events");
    }
  });
});

describe("S10 S11 usage", () => {
  it("S10 a stopped turn records the tokens and cost of the model calls that finished", async () => {
    fake.plans = [
      { kind: "tool", name: "current_time", args: {} },
      { kind: "text", text: "A long and slow answer. ".repeat(40), delayMs: 40 },
    ];
    const owner = await userWithWorkstream(server.url);
    const response = await send(owner, "Check the time, then talk");
    const turnId = response.headers.get("x-turn-id");
    const reading = readSse(response);
    // Stop once the second call has started answering.
    for (let i = 0; i < 200 && fake.requests.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    const stop = await owner.client.json<{ state: string }>(
      `/api/workstreams/${owner.workstreamId}/stop`,
      { method: "POST", json: {} },
    );
    expect(stop.body.state).toBe("cancelled");
    await reading;
    const row = await turnRow(turnId);
    expect(row).toMatchObject({ state: "cancelled", reason: ERROR_SENTENCES["turn:stopped"] });
    // The tool call's model call reported 120 in, 30 out; the cut second call reported nothing.
    expect(row?.usage).toMatchObject({ inputTokens: 120, outputTokens: 30 });
    expect(row?.costUsd).toBeCloseTo((120 * 0.4 + 30 * 1.6) / 1e6, 10);
    const overview = await owner.client.json<{
      overview: { inputTokens: number; costUsd: number };
    }>("/api/admin/workstreams");
    expect(overview.body.overview.inputTokens).toBe(120);
    expect(overview.body.overview.costUsd).toBeCloseTo((120 * 0.4 + 30 * 1.6) / 1e6, 10);
  });

  it("S11 a provider that streams no usage leaves tokens and cost unknown, not free", async () => {
    fake.plans = [{ kind: "text", text: "An answer without usage.", usage: false }];
    const { assistant, turnId, owner, events } = await sendAndRead("How much?");
    expect(statuses(events).at(-1)).toBe("ready");
    expect(assistant?.metadata).toMatchObject({
      inputTokens: null,
      outputTokens: null,
      costUsd: null,
    });
    const row = await turnRow(turnId);
    expect(row?.usage).toBeNull();
    expect(row?.costUsd).toBeNull();
    const list = await owner.client.json<{
      overview: { turnsWithoutUsage: number; inputTokens: number; costUsd: number };
      workstreams: Array<{ id: string; turnsWithoutUsage: number }>;
    }>("/api/admin/workstreams");
    expect(list.body.overview).toMatchObject({ turnsWithoutUsage: 1, inputTokens: 0, costUsd: 0 });
    expect(
      list.body.workstreams.find((item) => item.id === owner.workstreamId)?.turnsWithoutUsage,
    ).toBe(1);
    const runs = await owner.client.json<{ runs: AdminTurn[] }>(
      `/api/admin/workstreams/${owner.workstreamId}`,
    );
    expect(runs.body.runs[0]).toMatchObject({
      inputTokens: null,
      outputTokens: null,
      costUsd: null,
    });
  });
});

describe("H6 the stage contract", () => {
  it("H6 SEND_REQUEST: a transform's request is what the model gets, an observer sees it, a guard stops the call", async () => {
    const observed: string[] = [];
    cleanups.push(
      registerHook({
        kind: "transform",
        stage: "SEND_REQUEST",
        name: "add-note",
        run: (request) => ({ ...request, instructions: `${request.instructions}\nNOTE-42` }),
      }),
      registerHook({
        kind: "observer",
        stage: "SEND_REQUEST",
        name: "watch",
        run: (request) => {
          observed.push(request.instructions);
        },
      }),
    );
    fake.plans = [{ kind: "text", text: "Noted." }];
    await sendAndRead("hello");
    expect(JSON.stringify(fake.requests[0]?.messages)).toContain("NOTE-42");
    expect(observed.some((text) => text.endsWith("NOTE-42"))).toBe(true);

    cleanups.push(
      registerHook({
        kind: "guard",
        stage: "SEND_REQUEST",
        name: "no-model-today",
        run: () => ({ allow: false, reason: "budget" }),
      }),
    );
    fake.requests.length = 0;
    const { events } = await sendAndRead("hello again");
    expect(errorStatus(events)).toMatchObject({ code: "guard:refused", hook: "no-model-today" });
    expect(fake.requests).toHaveLength(0);
  });

  it("H6 STREAM_RESPONSE: a transform rewrites each chunk, an observer sees them, a guard fails the turn", async () => {
    const seen: string[] = [];
    const unregister = [
      registerHook({
        kind: "transform",
        stage: "STREAM_RESPONSE",
        name: "upper",
        run: ({ chunk }) => ({
          chunk:
            chunk.type === "text-delta" ? { ...chunk, delta: chunk.delta.toUpperCase() } : chunk,
        }),
      }),
      registerHook({
        kind: "observer",
        stage: "STREAM_RESPONSE",
        name: "watch",
        run: ({ chunk }) => {
          if (chunk.type === "text-delta") seen.push(chunk.delta);
        },
      }),
    ];
    cleanups.push(...unregister);
    fake.plans = [{ kind: "text", text: "quiet words" }];
    const { assistant } = await sendAndRead("hello");
    expect(messageText(assistant ?? { parts: [] })).toBe("QUIET WORDS");
    expect(seen.join("")).toBe("QUIET WORDS");
    for (const off of unregister) off();

    cleanups.push(
      registerHook({
        kind: "guard",
        stage: "STREAM_RESPONSE",
        name: "no-secrets-out",
        run: ({ chunk }) =>
          chunk.type === "text-delta" && chunk.delta.includes("secret")
            ? { allow: false, reason: "leak" }
            : { allow: true },
      }),
    );
    fake.plans = [{ kind: "text", text: "the secret is out" }];
    const { events } = await sendAndRead("tell me");
    expect(errorStatus(events)).toMatchObject({ code: "guard:refused", hook: "no-secrets-out" });
  });

  it("H6 TOOL_CALL: each call is its own stage with its status; a transform rewrites the input, an observer sees the output, a guard denies", async () => {
    const outputs: unknown[] = [];
    const stages: string[] = [];
    cleanups.push(
      registerHook({
        kind: "resolveAgent",
        name: "add-echo",
        run: ({ resolved }) => ({
          ...resolved,
          tools: {
            ...resolved.tools,
            echo: tool({
              description: "Echoes its word",
              inputSchema: z.object({ word: z.string() }),
              execute: async ({ word }) => `echo:${word}`,
            }),
          },
        }),
      }),
      registerHook({
        kind: "transform",
        stage: "TOOL_CALL",
        name: "rewrite",
        run: (call) => ({ ...call, input: { word: "rewritten" } }),
      }),
      registerHook({
        kind: "observer",
        stage: "TOOL_CALL",
        name: "watch",
        run: (call) => {
          outputs.push(call.output);
        },
      }),
      bus.on((event) => {
        if (event.type === "StagePreFired" || event.type === "StagePostFired") {
          stages.push(`${event.type}:${event.stage}`);
        }
      }),
    );
    fake.plans = [
      { kind: "tool", name: "echo", args: { word: "original" } },
      { kind: "text", text: "Done." },
    ];
    const { events } = await sendAndRead("echo something");
    expect(outputs).toEqual(["echo:rewritten"]);
    expect(JSON.stringify(fake.requests[1]?.messages)).toContain("echo:rewritten");
    expect(stages).toContain("StagePreFired:TOOL_CALL");
    expect(stages).toContain("StagePostFired:TOOL_CALL");
    expect(statuses(events)).toContain("tool");

    cleanups.push(
      registerHook({
        kind: "guard",
        stage: "TOOL_CALL",
        name: "no-echo",
        run: () => ({ allow: false, reason: "echo is off" }),
      }),
    );
    fake.plans = [
      { kind: "tool", name: "echo", args: { word: "again" } },
      { kind: "text", text: "It was denied." },
    ];
    fake.requests.length = 0;
    outputs.length = 0;
    const denied = await sendAndRead("echo again");
    expect(statuses(denied.events).at(-1)).toBe("ready");
    expect(JSON.stringify(fake.requests[1]?.messages)).toContain("Denied");
    expect(outputs).toEqual([]);
  });

  it("H6 a stop during the retry backoff ends the turn and starts no further model call", async () => {
    process.env.MODEL_ATTEMPTS = "3";
    process.env.MODEL_RETRY_BASE_MS = "1500";
    const started: number[] = [];
    cleanups.push(
      bus.on((event) => {
        if (event.type === "ProviderRequestStarted") started.push(event.attempt);
      }),
    );
    fake.plans = [{ kind: "fail", status: 503 }];
    fake.fallbackPlan = { kind: "fail", status: 503 };
    const owner = await userWithWorkstream(server.url);
    const response = await send(owner, "try and try");
    const reading = readSse(response);
    // The first call failed and the retry is waiting out its backoff.
    await expect.poll(() => fake.requests.length, { timeout: 5_000 }).toBe(1);
    const stop = await owner.client.json<{ state: string }>(
      `/api/workstreams/${owner.workstreamId}/stop`,
      { method: "POST", json: {} },
    );
    expect(stop.body.state).toBe("cancelled");
    const { events } = await reading;
    expect(statuses(events).at(-1)).toBe("cancelled");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(fake.requests).toHaveLength(1);
    expect(started).toEqual([1]);
  });
});
