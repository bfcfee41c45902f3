// The post-turn jobs that call a model, through each server a real model sits behind (the
// contract fake's three profiles, as tests/integration/model-profiles.test.ts runs the turns):
// the onboarding extraction stores the fact the model found, the title job names an untitled
// group workstream, and a compaction's summary and findings come back from the model. The structured output goes as the catalogue says the model takes it: a
// strict json_schema for OpenAI's models, JSON mode for a local model the catalogue does not know.
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { memories } from "@/db/schema";
import { postChatMemory } from "@/inngest/functions/post-chat-memory";
import { titleGeneration } from "@/inngest/functions/title-generation";
import type { EmbeddedRunner } from "@/inngest/runner";
import { summarizeRange } from "@/lib/compaction/summarize";
import type { AnyJobDefinition } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import { emptyState } from "@/lib/state/schema";
import { type FakeOpenAI, type Profile, startFakeOpenAI } from "../support/fake-openai";
import { appHarness, type GroupMember } from "../support/harness";
import { completedTurn, jobRunners, turnCompletedData } from "../support/post-turn";

const MODEL_ENV = [
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "OPENAI_MODEL",
  "MODEL_ATTEMPTS",
  "WORKSTREAMS_MODEL_CATALOGUE",
];
const app = appHarness({
  env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0", WORKSTREAMS_RATE_LIMIT_TURNS: "0" },
});
const runners = jobRunners(Date.UTC(2033, 0, 1));
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterEach(() => {
  for (const key of MODEL_ENV) delete process.env[key];
  fake.plans.length = 0;
  fake.profile = "chat";
});
afterAll(async () => {
  await fake?.close();
});

type Setting = {
  profile: Profile;
  model: string;
  env: Record<string, string>;
  api: "responses" | "chat";
  format: "json_schema" | "json_object";
};

const SETTINGS: Setting[] = [
  {
    profile: "responses",
    model: "gpt-4.1-mini",
    env: { WORKSTREAMS_MODEL_CATALOGUE: JSON.stringify({ "gpt-4.1-mini": { api: "responses" } }) },
    api: "responses",
    format: "json_schema",
  },
  { profile: "chat", model: "gpt-4.1-mini", env: {}, api: "chat", format: "json_schema" },
  { profile: "compatible", model: "llama3.1:8b", env: {}, api: "chat", format: "json_object" },
];

/** The jobs' model is the fake from here on (the turns before ran on the offline model). */
function useFake({ profile, model, env }: Setting) {
  Object.assign(process.env, {
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: fake.url,
    OPENAI_MODEL: model,
    MODEL_ATTEMPTS: "1",
    ...env,
  });
  fake.profile = profile;
  fake.requests.length = 0;
  fake.violations.length = 0;
}

async function runOnce(definition: AnyJobDefinition, member: GroupMember, data: unknown) {
  const clock = runners.clock();
  const runner: EmbeddedRunner = runners.runner(definition, {
    clock,
    processId: `profiles-${definition.id}`,
    backoffMs: 0,
  });
  const event = { id: crypto.randomUUID(), name: turnCompleted.name, data, ts: clock.now() };
  await runner.enqueue(await getDb(), [event]);
  for (let round = 0; round < 5; round++) if ((await runner.runDue()) === 0) break;
  return member;
}

describe.each(SETTINGS)("post-turn jobs through the $profile profile ($model)", (setting) => {
  it("the onboarding extraction stores the fact the model found", async () => {
    const member = await app.withGroup(`Learner ${setting.profile}`);
    const turnId = await completedTurn(
      member,
      "I coordinate the lighthouse restoration for the harbor trust.",
    );
    useFake(setting);
    const fact = `The member coordinates the lighthouse restoration (${setting.profile}).`;
    fake.plans.push({
      kind: "text",
      text: JSON.stringify({ facts: [{ message: 1, text: fact, importance: null }] }),
    });
    await runOnce(postChatMemory, member, turnCompletedData(member, turnId, { onboarding: true }));

    const db = await getDb();
    const stored = await db.select().from(memories).where(eq(memories.ownerId, member.user.userId));
    expect(stored.map((row) => row.text)).toEqual([fact]);
    const [request] = fake.requests;
    expect(request?.api).toBe(setting.api);
    expect(request?.model).toBe(setting.model);
    expect(request?.response_format?.type).toBe(setting.format);
    if (setting.format === "json_schema") {
      expect(request?.response_format?.json_schema?.strict).toBe(true);
    }
    expect(fake.violations).toEqual([]);
  });

  it("the title job names an untitled group workstream from the model's answer", async () => {
    const member = await app.withGroup(`Titler ${setting.profile}`);
    const created = await member.user.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "group" },
    });
    expect(created.status).toBe(201);
    const untitled = { user: member.user, workstreamId: created.body.id };
    const turnId = await completedTurn(untitled, "Plan the lighthouse restoration with me.");
    useFake(setting);
    fake.plans.push({ kind: "text", text: "Lighthouse Restoration Plan" });
    await runOnce(titleGeneration, untitled, {
      ...turnCompletedData(untitled, turnId, { onboarding: false }),
      untitled: true,
    });

    const view = await member.user.client.json<{ title: string }>(
      `/api/workstreams/${untitled.workstreamId}`,
    );
    expect(view.body.title).toBe("Lighthouse Restoration Plan");
    expect(fake.requests.map((request) => [request.api, request.model])).toEqual([
      [setting.api, setting.model],
    ]);
  });

  it("a compaction's summary and its findings come back from the model", async () => {
    useFake(setting);
    fake.plans.push({
      kind: "text",
      text: JSON.stringify({
        summary: "The lighthouse restoration uses copper flashing on the lantern room.",
        decisions: [{ text: "Copper flashing for the lantern room", rationale: "outlasts zinc" }],
        tasks: ["Get three masonry quotes"],
        openQuestions: [],
        risks: [],
      }),
    });
    const result = await summarizeRange({
      previousSummary: null,
      messages: [
        { role: "user", parts: [{ type: "text", text: "Copper or zinc for the lantern room?" }] },
        { role: "assistant", parts: [{ type: "text", text: "Copper: it outlasts zinc." }] },
      ],
      state: emptyState(),
      limit: 1_200,
    });
    expect(result.summary).toContain("copper flashing");
    expect(result.delta.keyDecisions?.add?.map((decision) => decision.rationale)).toEqual([
      "outlasts zinc",
    ]);
    expect(result.model).toBe(setting.model);
    const [request] = fake.requests;
    expect(request?.api).toBe(setting.api);
    expect(request?.response_format?.type).toBe(setting.format);
  });
});
