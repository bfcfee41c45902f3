// Learning with an OpenAI model: the onboarding extraction, the digest and skill extraction run on
// the embedded runner against the fake OpenAI server, which refuses a strict schema OpenAI would
// refuse. Their structured outputs arrive as a strict-mode model sends them (every field, null for
// the ones left out) and become the member's memories and skill. When the provider refuses, the
// failure record keeps the code and sentence and the members whose turns the job covered: the
// admin's Background jobs list and the owner's inspector say why (the provider's words to the
// owner only), and the member's memories say learning is failing.
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { failedJobs, jobEvents, memories, skills } from "@/db/schema";
import { postChatMemory } from "@/inngest/functions/post-chat-memory";
import { regularChatMemoryDigest } from "@/inngest/functions/regular-chat-memory-digest";
import { skillExtraction } from "@/inngest/functions/skill-extraction";
import type { EmbeddedRunner } from "@/inngest/runner";
import { listFailedJobs } from "@/lib/admin/failed-jobs";
import type { TurnInspection } from "@/lib/inspector/types";
import type { AnyJobDefinition, JobEvent } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";
import { appHarness, type GroupMember, joinOrganization } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { completedTurn, jobRunners, turnCompletedData } from "../support/post-turn";

const MINUTE = 60_000;
const MODEL_ENV = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "MODEL_ATTEMPTS"];

const app = appHarness({
  env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0", WORKSTREAMS_RATE_LIMIT_TURNS: "0" },
});
const runners = jobRunners(Date.UTC(2031, 0, 1));
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterEach(() => {
  for (const key of MODEL_ENV) delete process.env[key];
  fake.plans.length = 0;
});
afterAll(async () => {
  await fake?.close();
});

/** The jobs' model is the fake from here on (the turns before ran on the offline model). */
function useFakeModel() {
  Object.assign(process.env, {
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: fake.url,
    OPENAI_MODEL: "gpt-4.1-mini",
    MODEL_ATTEMPTS: "1",
  });
  fake.requests.length = 0;
}

function runnerOf(definition: AnyJobDefinition) {
  const clock = runners.clock();
  const runner = runners.runner(definition, {
    clock,
    processId: `learning-${definition.id}`,
    backoffMs: 0,
  });
  return { runner, clock };
}

/** Runs the runner's due jobs until none is left (retries included). */
async function runAll(runner: EmbeddedRunner): Promise<void> {
  for (let round = 0; round < 10; round++) {
    if ((await runner.runDue()) === 0) return;
  }
}

/** One completed turn, and the post-turn event for it with the given flags. */
async function turnOf(
  member: GroupMember,
  text: string,
  flags: { onboarding: boolean; skills?: boolean },
  ts = Date.now(),
): Promise<JobEvent & { turnId: string }> {
  const turnId = await completedTurn(member, text);
  const data = turnCompletedData(member, turnId, flags);
  // The turn's own post-turn event (its outbox row), which the inspector lists with its jobs.
  const db = await getDb();
  const [outbox] = await db
    .select({ id: jobEvents.id })
    .from(jobEvents)
    .where(sql`${jobEvents.data} ->> 'turnId' = ${turnId}`);
  return { id: outbox?.id ?? crypto.randomUUID(), name: turnCompleted.name, data, ts, turnId };
}

async function memoriesOf(user: SignedUpUser) {
  const db = await getDb();
  return db.select().from(memories).where(eq(memories.ownerId, user.userId));
}

/** A structured output as a strict-mode model writes it: every field, null where it has none. */
function answer(value: unknown) {
  return { kind: "text" as const, text: JSON.stringify(value) };
}

describe("learning through an OpenAI model in strict mode", () => {
  it("T19 T22 the onboarding extraction, the digest and skill extraction store memories and a skill", async () => {
    const onboarding = await app.withGroup("Strict Onboarding");
    const regular = await app.withGroup("Strict Digest");
    const procedure = await app.withGroup("Strict Skill");
    const first = await turnOf(
      onboarding,
      "I coordinate the lighthouse restoration for the harbor trust.",
      { onboarding: true },
    );
    const later = await turnOf(regular, "I sail the catamaran on Sundays.", { onboarding: false });
    const steps = await turnOf(
      procedure,
      "Here is how to release the harbor app:\n1. Bump the version in the manifest\n2. Run the store checks\n3. Upload the build to the beta track",
      { onboarding: false, skills: true },
    );
    useFakeModel();

    fake.plans.push(
      answer({
        facts: [
          {
            message: 1,
            text: "The member coordinates the lighthouse restoration for the harbor trust.",
            importance: null,
          },
        ],
      }),
    );
    const post = runnerOf(postChatMemory);
    await post.runner.enqueue(await getDb(), [first]);
    await runAll(post.runner);

    fake.plans.push(
      answer({
        facts: [{ message: 1, text: "The member sails the catamaran on Sundays.", importance: 6 }],
      }),
    );
    const digest = runnerOf(regularChatMemoryDigest);
    await digest.runner.enqueue(await getDb(), [{ ...later, ts: digest.clock.now() }]);
    digest.clock.advance(16 * MINUTE);
    await runAll(digest.runner);

    fake.plans.push(
      answer({
        skills: [
          {
            message: null,
            name: "Release the harbor app",
            whenToUse: "When you need to release the harbor app.",
            steps: ["Bump the version", "Run the store checks", "Upload to the beta track"],
          },
        ],
      }),
    );
    const skill = runnerOf(skillExtraction);
    await skill.runner.enqueue(await getDb(), [steps]);
    await runAll(skill.runner);

    // Each job asked once, in strict mode, and was answered (the fake refuses a broken schema).
    expect(fake.requests.map((request) => request.response_format?.json_schema?.strict)).toEqual([
      true,
      true,
      true,
    ]);
    expect(fake.plans).toEqual([]);
    expect((await memoriesOf(onboarding.user)).map((row) => row.text)).toEqual([
      "The member coordinates the lighthouse restoration for the harbor trust.",
    ]);
    expect(
      (await memoriesOf(regular.user)).map(({ text, importance }) => ({ text, importance })),
    ).toEqual([{ text: "The member sails the catamaran on Sundays.", importance: 6 }]);
    const db = await getDb();
    const stored = await db.select().from(skills).where(eq(skills.ownerId, procedure.user.userId));
    expect(stored.map(({ name, steps: kept }) => ({ name, steps: kept }))).toEqual([
      {
        name: "Release the harbor app",
        steps: ["Bump the version", "Run the store checks", "Upload to the beta track"],
      },
    ]);
    expect(await db.select().from(failedJobs)).toEqual([]);
  });

  it("a refused learning job records why and whom it covered; the admin sees the code, the owner also the provider's words, the member that learning is failing", async () => {
    const admin = await app.withGroup("Learning Admin");
    const member = await app.signUp("Learning Member");
    await joinOrganization(member, admin.user.organizationId, "member");
    const owner = await app.withGroup("Learning Member", {
      ...member,
      organizationId: admin.user.organizationId,
    });
    const bystander = await app.withGroup("Learning Bystander");
    const event = await turnOf(owner, "I keep the ledgers for the rowing club.", {
      onboarding: true,
    });
    useFakeModel();
    const providerWords = "Invalid schema for response_format 'response': Zk9provider words";
    fake.fallbackPlan = {
      kind: "fail",
      status: 400,
      message: providerWords,
      type: "invalid_request_error",
    };
    try {
      const post = runnerOf(postChatMemory);
      await post.runner.enqueue(await getDb(), [event]);
      await runAll(post.runner);
    } finally {
      fake.fallbackPlan = { kind: "text", text: "Hello from the fake model." };
    }
    expect(fake.requests.length).toBeGreaterThan(1); // retried before giving up

    const db = await getDb();
    const [record] = await db.select().from(failedJobs);
    expect(record).toMatchObject({
      functionId: postChatMemory.id,
      errorCode: "model:bad_request",
      errorMessage: "The model provider rejected the request.",
      memberIds: [member.userId],
    });

    // The admin's Background jobs tab: the code and its sentence, never the provider's words.
    const listed = await listFailedJobs({ organizationId: admin.user.organizationId });
    expect(listed.map(({ errorCode, errorMessage }) => ({ errorCode, errorMessage }))).toEqual([
      { errorCode: "model:bad_request", errorMessage: "The model provider rejected the request." },
    ]);
    expect(JSON.stringify(listed)).not.toContain("Zk9provider");
    const adminView = await admin.user.client.json<TurnInspection>(
      `/api/admin/workstreams/${owner.workstreamId}/turns/${event.turnId}`,
    );
    expect(adminView.status).toBe(200);
    expect(adminView.body.jobs.flatMap((job) => job.failures)).toEqual([
      expect.objectContaining({ errorCode: "model:bad_request" }),
    ]);
    expect(JSON.stringify(adminView.body)).not.toContain("Zk9provider");

    // The owner's inspector: the code, its sentence and what the provider said.
    const ownerView = await member.client.json<TurnInspection>(
      `/api/workstreams/${owner.workstreamId}/turns/${event.turnId}`,
    );
    expect(ownerView.body.jobs.flatMap((job) => job.failures)).toEqual([
      expect.objectContaining({
        functionId: postChatMemory.id,
        errorCode: "model:bad_request",
        errorMessage: "The model provider rejected the request.",
        providerDetail: providerWords,
      }),
    ]);

    // The member is told on their memories; someone whose turns it did not cover is not.
    type Memories = { learningFailure: { code: string; message: string } | null };
    const mine = await member.client.json<Memories>("/api/memories");
    expect(mine.body.learningFailure).toMatchObject({
      code: "model:bad_request",
      message: "The model provider rejected the request.",
    });
    const theirs = await bystander.user.client.json<Memories>("/api/memories");
    expect(theirs.body.learningFailure).toBeNull();
    const adminOwn = await admin.user.client.json<Memories>("/api/memories");
    expect(adminOwn.body.learningFailure).toBeNull();
  });
});
