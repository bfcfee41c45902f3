// The same turns through each server a real model sits behind, via the real @ai-sdk/openai
// provider and the contract fake (tests/support/fake-openai.ts): OpenAI's Responses API, OpenAI's
// Chat Completions, and an OpenAI-compatible server with a model the catalogue does not know.
// One app and one database for the file; each profile switches the fake and the environment.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { TurnInspection } from "@/lib/inspector/types";
import { embedTexts } from "@/lib/memory/embedding";
import { extractStructured } from "@/lib/models/extract";
import { strictSchema } from "@/lib/models/strict-schema";
import { StructuredOutputError } from "@/lib/models/structured-output";
import { wireDomains } from "@/root/wiring";
import {
  type FakeOpenAI,
  type Profile,
  type RecordedRequest,
  startFakeOpenAI,
  USAGE,
} from "../support/fake-openai";
import { type Owner, send } from "../support/fixtures";
import { appHarness } from "../support/harness";
import { messageText, readSse, type SseEvent, statuses } from "../support/sse";
import {
  answer,
  deskWithTarget,
  followFrom,
  messagesOf,
  sendUntilSuspended,
} from "./approvals-support";

const app = appHarness({
  env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0", WORKSTREAMS_RATE_LIMIT_TURNS: "0" },
  wire: wireDomains,
});
const MODEL_ENV = [
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "OPENAI_MODEL",
  "MODEL_ATTEMPTS",
  "MODEL_RETRY_BASE_MS",
  "WORKSTREAMS_MODEL_CATALOGUE",
];
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  for (const key of MODEL_ENV) delete process.env[key];
  await fake?.close();
});

type Setting = { profile: Profile; model: string; env: Record<string, string> };

const SETTINGS: Setting[] = [
  {
    profile: "responses",
    model: "gpt-4.1-mini",
    // A base URL means a compatible server unless the catalogue says the model speaks Responses.
    env: { WORKSTREAMS_MODEL_CATALOGUE: JSON.stringify({ "gpt-4.1-mini": { api: "responses" } }) },
  },
  { profile: "chat", model: "gpt-4.1-mini", env: {} },
  { profile: "compatible", model: "llama3.1:8b", env: {} },
];

type Page = {
  messages: Array<{
    role: string;
    parts: Array<{ type: string; text?: string; state?: string; output?: unknown }>;
    metadata: Record<string, unknown>;
  }>;
};

async function turn(owner: Owner, text: string) {
  const response = await send(owner, text);
  expect(response.status).toBe(200);
  const { events } = await readSse(response);
  return { events, assistant: await lastAnswer(owner) };
}

async function lastAnswer(owner: Owner) {
  const page = (await owner.client.json<Page>(`/api/workstreams/${owner.workstreamId}/messages`))
    .body;
  return page.messages.findLast((message) => message.role === "assistant");
}

const streams = (request: RecordedRequest) => request.body.stream === true;
const streamed = () => fake.requests.filter(streams);

function lastStatus(events: SseEvent[]) {
  return statuses(events).at(-1);
}

describe.each(SETTINGS)("through the $profile profile ($model)", ({ profile, model, env }) => {
  beforeAll(() => {
    for (const key of MODEL_ENV) delete process.env[key];
    Object.assign(process.env, {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODEL: model,
      MODEL_ATTEMPTS: "1",
      ...env,
    });
    fake.profile = profile;
  });
  beforeEach(() => {
    fake.plans = [];
    fake.requests.length = 0;
    fake.violations.length = 0;
    fake.fallbackPlan = { kind: "text", text: "Hello from the fake model." };
    // Turns and consultations stream; the post-turn jobs (titles, activity lines) do not.
    fake.takesPlan = streams;
  });

  const api = profile === "responses" ? "responses" : "chat";

  it("a plain turn streams its answer, with the usage the server reports", async () => {
    fake.plans = [{ kind: "text", text: "Plain and simple, from the fake." }];
    const owner = await app.owner();
    const { events, assistant } = await turn(owner, "Say something plain.");
    expect(lastStatus(events)).toBe("ready");
    expect(messageText(assistant ?? { parts: [] })).toBe("Plain and simple, from the fake.");
    expect(streamed().map((request) => [request.api, request.model])).toEqual([[api, model]]);
    if (profile === "compatible") {
      // No usage chunk: unknown, never zero; and an unknown model's cost is unknown.
      expect(assistant?.metadata).toMatchObject({ inputTokens: null, costUsd: null });
    } else {
      expect(assistant?.metadata).toMatchObject({
        model,
        inputTokens: USAGE.input,
        outputTokens: USAGE.output,
      });
      expect(assistant?.metadata.costUsd).toEqual(expect.any(Number));
    }
    if (profile === "responses") expect(streamed()[0]?.store).toBe(false);
    expect(fake.violations).toEqual([]);
  });

  it("a tool loop: the call's arguments stream in, the tool runs, the model sees its result", async () => {
    fake.plans = [
      { kind: "tool", name: "calculate", args: { expression: "(1200 * 0.15) / 4" } },
      { kind: "text", text: "It comes to 45." },
    ];
    const owner = await app.owner();
    const { events, assistant } = await turn(owner, "What is (1200 * 0.15) / 4?");
    expect(lastStatus(events)).toBe("ready");
    expect(statuses(events)).toContain("tool");
    expect(streamed()).toHaveLength(2);
    expect(JSON.stringify(streamed()[1]?.messages)).toContain('\\"value\\":45');
    expect(messageText(assistant ?? { parts: [] })).toContain("It comes to 45.");
    expect(assistant?.parts.find((part) => part.type === "tool-calculate")?.state).toBe(
      "output-available",
    );
  });

  it("parallel tool calls in one step each run and each answer goes back", async () => {
    fake.plans = [
      {
        kind: "tools",
        calls: [
          { name: "calculate", args: { expression: "2 + 2" } },
          { name: "calculate", args: { expression: "3 * 3" } },
        ],
      },
      { kind: "text", text: "Four and nine." },
    ];
    const owner = await app.owner();
    const { events, assistant } = await turn(owner, "Two sums, please.");
    expect(lastStatus(events)).toBe("ready");
    const sent = JSON.stringify(streamed()[1]?.messages);
    expect(sent).toContain('\\"value\\":4');
    expect(sent).toContain('\\"value\\":9');
    expect(assistant?.parts.filter((part) => part.type === "tool-calculate")).toHaveLength(2);
  });

  it("an approval suspends the turn and approving continues it through the same server", async () => {
    const desk = await deskWithTarget(app.url);
    fake.plans = [
      {
        kind: "tool",
        name: "send_message",
        args: {
          workstreamId: desk.targetTitle,
          text: "the launch moved to May",
          reason: "You asked me to pass this on.",
        },
      },
      { kind: "text", text: "Passed on." },
    ];
    const { turnId, approvalIds, events } = await sendUntilSuspended(
      desk,
      "tell my Launch notes workstream: the launch moved to May",
    );
    const suspendedAt = Math.max(...events.map((event) => event.offset ?? 0));
    const approved = await answer(desk.client, desk, turnId, String(approvalIds[0]), {
      approved: true,
    });
    expect(approved.status).toBe(200);
    const followed = await followFrom(desk, suspendedAt);
    expect(lastStatus(followed.events)).toBe("ready");
    expect(streamed()).toHaveLength(2);
    expect(streamed()[1]?.api).toBe(api);
    expect(JSON.stringify(streamed()[1]?.messages)).toContain("sent");
    const target = await messagesOf(desk.targetId);
    expect(JSON.stringify(target.map((row) => row.parts))).toContain("the launch moved to May");
  });

  it("an image and a PDF go with the message where the catalogue says the model takes them", async () => {
    const owner = await app.owner();
    const uploaded = [];
    for (const name of ["photo.png", "report.pdf"]) {
      const form = new FormData();
      const bytes = await readFile(path.resolve("tests/fixtures/files", name));
      form.append("file", new Blob([new Uint8Array(bytes)]), name);
      const response = await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/files`, {
        method: "POST",
        body: form,
      });
      expect(response.status).toBe(201);
      uploaded.push((await response.json()) as { id: string; name: string; mediaType: string });
    }
    fake.plans = [{ kind: "text", text: "I see both files." }];
    const response = await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/messages`, {
      method: "POST",
      json: {
        message: {
          id: `m_${crypto.randomUUID().slice(0, 12)}`,
          role: "user",
          parts: [
            { type: "text", text: "Look at these." },
            ...uploaded.map((file) => ({
              type: "file",
              mediaType: file.mediaType,
              filename: file.name,
              url: `file:${file.id}`,
            })),
          ],
        },
      },
    });
    const { events } = await readSse(response);
    expect(lastStatus(events)).toBe("ready");
    const sent = JSON.stringify(streamed()[0]?.messages);
    const parts = {
      responses: ["input_image", "input_file"],
      chat: ["image_url", '"type":"file"'],
      compatible: [],
    }[profile];
    for (const part of parts) expect(sent).toContain(part);
    if (profile === "compatible") {
      // An unknown model takes text only: the files are listed, readable with read_attachment.
      expect(sent).not.toContain("image_url");
      expect(sent).toContain("read_attachment");
    }
  });

  it("embeddings come from the same server", async () => {
    process.env.OPENAI_EMBEDDING_MODEL =
      profile === "compatible" ? "nomic-embed-text" : "text-embedding-3-small";
    process.env.OPENAI_EMBEDDING_DIMENSIONS = "1536";
    try {
      const vectors = await embedTexts(["tea in the morning", "coffee at night"]);
      expect(vectors?.map((vector) => vector.length)).toEqual([1536, 1536]);
      expect(fake.embeddingRequests.at(-1)?.model).toBe(process.env.OPENAI_EMBEDDING_MODEL);
    } finally {
      delete process.env.OPENAI_EMBEDDING_MODEL;
      delete process.env.OPENAI_EMBEDDING_DIMENSIONS;
    }
  });

  it("the owner's inspector and the admin console flag a model the catalogue does not know", async () => {
    const group = await app.withGroup(`Notice ${profile}`);
    const admin = await app.memberOf(group.user.organizationId, "admin", `Admin ${profile}`);
    fake.plans = [{ kind: "text", text: "Noted." }];
    const response = await send({ ...group.user, workstreamId: group.workstreamId }, "Note this.");
    const turnId = String(response.headers.get("x-turn-id"));
    await readSse(response);
    const path = `/workstreams/${group.workstreamId}/turns/${turnId}`;
    const views = [
      await group.user.client.json<TurnInspection>(`/api/${path.slice(1)}`),
      await admin.client.json<TurnInspection>(`/api/admin${path}`),
    ];
    for (const view of views) {
      expect(view.status).toBe(200);
      if (profile === "compatible") {
        expect(view.body.turn.modelNotice).toContain("llama3.1:8b is not in the model catalogue");
        expect(view.body.turn.modelNotice).toContain("WORKSTREAMS_MODEL_CATALOGUE");
      } else {
        expect(view.body.turn.modelNotice).toBeNull();
      }
    }
  });

  it("a specialist consultation runs through the same server, nested in the chief's turn", async () => {
    const group = await app.withGroup(`Specialist ${profile}`);
    fake.plans = [
      {
        kind: "tool",
        name: "consult_specialist",
        args: { specialist: "analyst", question: "Which option is cheaper?" },
      },
      { kind: "text", text: "Option B is cheaper by a third." },
      { kind: "text", text: "The analyst says option B." },
    ];
    const { events, assistant } = await turn(
      { ...group.user, workstreamId: group.workstreamId },
      "Ask the analyst which option is cheaper.",
    );
    expect(lastStatus(events)).toBe("ready");
    expect(streamed().map((request) => request.api)).toEqual([api, api, api]);
    const nested = events.filter((event) => event.data.type === "data-specialist").at(-1);
    expect(JSON.stringify(nested?.data)).toContain("Option B is cheaper by a third.");
    expect(messageText(assistant ?? { parts: [] })).toContain("The analyst says option B.");
  });
});

describe("reasoning through the Responses API", () => {
  beforeAll(() => {
    for (const key of MODEL_ENV) delete process.env[key];
    Object.assign(process.env, {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODEL: "o4-mini",
      MODEL_ATTEMPTS: "1",
      WORKSTREAMS_MODEL_CATALOGUE: JSON.stringify({ "o4-mini": { api: "responses" } }),
    });
    fake.profile = "responses";
  });
  beforeEach(() => {
    fake.plans = [];
    fake.requests.length = 0;
    fake.takesPlan = streams;
  });

  it("the profile's effort is asked for, the summary streams as a reasoning part, its tokens are counted and priced", async () => {
    fake.plans = [
      {
        kind: "tool",
        name: "calculate",
        args: { expression: "2 + 2" },
        reasoning: "Summing first.",
      },
      { kind: "text", text: "It is 4.", reasoning: "Checking the sum." },
    ];
    const owner = await app.owner();
    const { events, assistant } = await turn(owner, "What is 2 + 2?");
    expect(lastStatus(events)).toBe("ready");
    const [first, second] = streamed();
    expect(first?.reasoning).toMatchObject({ effort: expect.any(String), summary: "auto" });
    expect(first?.store).toBe(false);
    expect(first?.include).toContain("reasoning.encrypted_content");
    // Not stored at OpenAI: the encrypted reasoning goes back with the next step.
    expect(JSON.stringify(second?.messages)).toMatch(
      /"type":"reasoning","id":"rs_\d+","encrypted_content":"enc_\d+"/,
    );
    const reasoning = assistant?.parts.filter((part) => part.type === "reasoning");
    expect(reasoning?.map((part) => part.text)).toEqual(["Summing first.", "Checking the sum."]);
    expect(assistant?.metadata.reasoningTokens).toBe(2 * USAGE.reasoning);
    // o4-mini: 1.1 in (0.275 cached), 4.4 out per million; reasoning is part of the output.
    const perStep =
      ((USAGE.input - USAGE.cached) * 1.1 + USAGE.cached * 0.275 + USAGE.output * 4.4) / 1e6;
    expect(assistant?.metadata.costUsd).toBeCloseTo(2 * perStep, 10);
  });
});

describe.each(["responses", "chat"] as const)("failures end as promised (%s)", (profile) => {
  beforeAll(() => {
    for (const key of MODEL_ENV) delete process.env[key];
    Object.assign(process.env, {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODEL: "gpt-4.1-mini",
      MODEL_ATTEMPTS: "2",
      MODEL_RETRY_BASE_MS: "5",
      ...(profile === "responses"
        ? {
            WORKSTREAMS_MODEL_CATALOGUE: JSON.stringify({ "gpt-4.1-mini": { api: "responses" } }),
          }
        : {}),
    });
    fake.profile = profile;
  });
  beforeEach(() => {
    fake.plans = [];
    fake.requests.length = 0;
    fake.takesPlan = streams;
  });

  function errorOf(events: SseEvent[]) {
    const event = events.find(
      (item) =>
        item.data.type === "data-status" && (item.data.data as { state: string }).state === "error",
    );
    return (event?.data.data ?? {}) as { code?: string; message?: string };
  }

  it("a 429 with retry-after is waited out, then retried", async () => {
    fake.plans = [
      { kind: "fail", status: 429, retryAfter: 1 },
      { kind: "text", text: "After the wait." },
    ];
    const started = Date.now();
    const { events, assistant } = await turn(await app.owner(), "Hello?");
    expect(lastStatus(events)).toBe("ready");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(streamed()).toHaveLength(2);
    expect(messageText(assistant ?? { parts: [] })).toBe("After the wait.");
  });

  it("a 429 asking for a longer wait than a turn can give fails the turn as rate limited", async () => {
    fake.plans = [{ kind: "fail", status: 429, retryAfter: 120, message: "Zk9 tenant quota" }];
    const { events } = await turn(await app.owner(), "Hello?");
    expect(errorOf(events).code).toBe("model:rate_limit");
    expect(JSON.stringify(events)).not.toContain("Zk9");
    expect(streamed()).toHaveLength(1);
  });

  it("context_length_exceeded trims the oldest conversation and retries once", async () => {
    const owner = await app.owner();
    fake.plans = [{ kind: "text", text: "First answer." }];
    await turn(owner, "First question.");
    fake.plans = [
      { kind: "fail", status: 400, code: "context_length_exceeded" },
      { kind: "text", text: "Answered within the window." },
    ];
    fake.requests.length = 0;
    const { events, assistant } = await turn(owner, "Second question.");
    expect(lastStatus(events)).toBe("ready");
    expect(messageText(assistant ?? { parts: [] })).toBe("Answered within the window.");
    const [refused, retried] = streamed();
    expect(JSON.stringify(refused?.messages)).toContain("First question.");
    expect(JSON.stringify(retried?.messages)).not.toContain("First question.");
    expect(JSON.stringify(retried?.messages)).toContain("Second question.");
  });

  it("malformed arguments, arguments that fail the schema and an unknown tool are tool errors the model sees", async () => {
    fake.plans = [
      {
        kind: "tools",
        calls: [
          { name: "calculate", args: '{"expression": "2 +' },
          { name: "calculate", args: { expression: 5 } },
          { name: "launch_rockets", args: {} },
        ],
      },
      { kind: "text", text: "Those did not work." },
    ];
    const { events, assistant } = await turn(await app.owner(), "Try some tools.");
    expect(lastStatus(events)).toBe("ready");
    expect(streamed()).toHaveLength(2);
    const sent = JSON.stringify(streamed()[1]?.messages);
    expect(sent).toContain("launch_rockets");
    expect(sent.match(/error/gi)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(messageText(assistant ?? { parts: [] })).toContain("Those did not work.");
  });

  it("a refusal is the answer the member reads", async () => {
    fake.plans = [{ kind: "refusal", text: "I can't help with that." }];
    const { events, assistant } = await turn(await app.owner(), "Something off-limits.");
    expect(lastStatus(events)).toBe("ready");
    expect(messageText(assistant ?? { parts: [] })).toBe("I can't help with that.");
  });

  it("a stream that stops mid-tool-call is retried; with no attempt left the turn fails with a stable code", async () => {
    fake.plans = [
      { kind: "tool-then-drop", name: "calculate", args: { expression: "1 + 1" } },
      { kind: "text", text: "Retried cleanly." },
    ];
    const retried = await turn(await app.owner(), "Add one and one.");
    expect(lastStatus(retried.events)).toBe("ready");
    expect(streamed()).toHaveLength(2);
    expect(messageText(retried.assistant ?? { parts: [] })).toBe("Retried cleanly.");
    expect(retried.assistant?.parts.some((part) => part.type === "tool-calculate")).toBe(false);

    process.env.MODEL_ATTEMPTS = "1";
    try {
      fake.plans = [{ kind: "tool-then-drop", name: "calculate", args: { expression: "1 + 1" } }];
      const { events } = await turn(await app.owner(), "Add one and one.");
      expect(lastStatus(events)).toBe("error");
      const error = errorOf(events);
      expect(error.code).toMatch(/^model:/);
      expect(error.message).toMatch(/\.$/);
    } finally {
      process.env.MODEL_ATTEMPTS = "2";
    }
  });
});

describe("structured output that degrades with the model's catalogue entry", () => {
  const schema = strictSchema(z.object({ facts: z.array(z.string()) }));
  const extract = () =>
    extractStructured({
      task: "memory-facts",
      instructions: "List the facts worth remembering.",
      transcript: "I drink tea every morning.",
      schema,
      maxOutputTokens: 200,
    });

  beforeEach(() => {
    for (const key of MODEL_ENV) delete process.env[key];
    Object.assign(process.env, {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODEL: "llama3.1:8b",
      MODEL_ATTEMPTS: "1",
    });
    fake.profile = "compatible";
    fake.plans = [];
    fake.requests.length = 0;
    fake.takesPlan = () => true;
  });

  it("a model with strict schemas gets json_schema in strict mode", async () => {
    process.env.OPENAI_MODEL = "gpt-4.1-mini";
    fake.profile = "chat";
    fake.plans = [{ kind: "text", text: '{"facts":["drinks tea"]}' }];
    expect(await extract()).toEqual({ facts: ["drinks tea"] });
    expect(fake.requests[0]?.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { strict: true },
    });
  });

  it("an unknown model on a compatible server gets JSON mode with the schema in its instructions", async () => {
    fake.plans = [{ kind: "text", text: '{"facts":["drinks tea"]}' }];
    expect(await extract()).toEqual({ facts: ["drinks tea"] });
    expect(fake.requests[0]?.response_format).toEqual({ type: "json_object" });
    expect(JSON.stringify(fake.requests[0]?.messages)).toContain("must match this JSON schema");
  });

  it("an answer that fails the schema gets one repair attempt carrying the validation error", async () => {
    fake.plans = [
      { kind: "text", text: '{"facts":"drinks tea"}' },
      { kind: "text", text: '{"facts":["drinks tea"]}' },
    ];
    expect(await extract()).toEqual({ facts: ["drinks tea"] });
    expect(fake.requests).toHaveLength(2);
    expect(JSON.stringify(fake.requests[1]?.messages)).toContain(
      "Your previous answer was not valid",
    );
  });

  it("a second failure fails with the model's id and the reason, none of the answer's words", async () => {
    fake.plans = [
      { kind: "text", text: "the secret word is marmalade" },
      { kind: "text", text: "still marmalade" },
    ];
    const failure = await extract().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StructuredOutputError);
    expect(String((failure as Error).message)).toBe(
      "llama3.1:8b gave no valid structured output: the answer is not valid JSON",
    );
    expect(String((failure as Error).message)).not.toContain("marmalade");
  });

  it("a model whose entry says tool answers through one forced tool call", async () => {
    process.env.WORKSTREAMS_MODEL_CATALOGUE = JSON.stringify({
      "qwen2.5:7b": {
        api: "chat",
        contextWindow: 32_768,
        input: { image: false, pdf: false },
        tools: true,
        structuredOutput: "tool",
        reasoning: null,
        prices: null,
      },
    });
    process.env.OPENAI_MODEL = "qwen2.5:7b";
    fake.plans = [{ kind: "tool", name: "give_answer", args: { facts: ["drinks tea"] } }];
    expect(await extract()).toEqual({ facts: ["drinks tea"] });
    expect(fake.requests[0]?.response_format).toBeUndefined();
    expect(fake.requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(["give_answer"]);
    expect(fake.requests[0]?.body.tool_choice).toEqual({
      type: "function",
      function: { name: "give_answer" },
    });
  });
});
