// The regular memory digest on the embedded runner with a clock the test moves by hand (its
// declared flow control: debounced per organization with a 15-minute period and maximum wait),
// and on Inngest's test engine: real turns of members past onboarding are digested in rounds
// from the organization's cursor; a repeated fact (the same normalized text, or a vector at
// least 0.92 similar) reinforces its memory; a run that dies after its write committed is taken
// over without writing twice; onboarding turns are left to post-chat-memory. No job engine runs
// in this file but the runners it makes.
import { InngestTestEngine } from "@inngest/test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { jobs, memories, turns } from "@/db/schema";
import { inngestFunctions } from "@/inngest/engine";
import { regularChatMemoryDigest } from "@/inngest/functions/regular-chat-memory-digest";
import type { EmbeddedRunner } from "@/inngest/runner";
import { DEBOUNCED } from "@/inngest/runner/store";
import type { AnyJobDefinition, JobEvent, JobStep } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import { digestCursor } from "@/lib/memory/digest";
import { appHarness, type GroupMember } from "../support/harness";
import type { SignedUpUser } from "../support/http-client";
import { completedTurn, jobRunners, type TestClock, turnCompletedData } from "../support/post-turn";

const MINUTE = 60_000;

const WORDS = (
  "anchor bellows compass dinghy estuary flotilla gangway hawser inlet jetty keelson lanyard " +
  "mooring nautical outboard porthole quayside rudder schooner tiller umbrella valve windlass " +
  "yardarm zodiac almond basil cumin dill fennel ginger hazelnut juniper kale lentil mustard " +
  "nutmeg oregano paprika quince radish saffron tarragon vanilla walnut yarrow zucchini apricot"
).split(" ");

/** Fact number `index`: its words set it apart (no two are 0.92 similar by vector). */
function fact(index: number): string {
  return `I keep the ${WORDS[index]} beside the ${WORDS[(index * 7 + 3) % WORDS.length]}.`;
}

const app = appHarness({
  env: { OFFLINE_MODEL_CHUNK_DELAY_MS: "0", WORKSTREAMS_RATE_LIMIT_TURNS: "0" },
});
const runners = jobRunners(Date.UTC(2030, 0, 1));

function runnerOf(
  definition: AnyJobDefinition,
  clock: TestClock,
  processId: string,
): EmbeddedRunner {
  return runners.runner(definition, { clock, processId, backoffMs: MINUTE });
}

/** A member past onboarding (no onboarding row: their turns are regular) with a group workstream. */
const regularMember = (name: string) => app.withGroup(name);

/** One completed turn; the post-turn event it wrote, stamped with the test clock's time. */
async function turnOf(member: GroupMember, text: string, at: number): Promise<JobEvent> {
  const turnId = await completedTurn(member, text);
  const data = turnCompletedData(member, turnId, { onboarding: false });
  return { id: crypto.randomUUID(), name: turnCompleted.name, data, ts: at };
}

async function enqueue(runner: EmbeddedRunner, ...events: JobEvent[]): Promise<void> {
  await runner.enqueue(await getDb(), events);
}

/** The digest runs an organization has had: when each started (by the runner's clock). */
async function runsOf(organizationId: string): Promise<number[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(jobs)
    .where(
      and(eq(jobs.functionId, regularChatMemoryDigest.id), eq(jobs.debounceKey, organizationId)),
    );
  return rows
    .filter((row) => row.startedAt && row.lastError !== DEBOUNCED)
    .map((row) => row.startedAt?.getTime() ?? 0)
    .sort((a, b) => a - b);
}

async function memoriesOf(user: SignedUpUser) {
  const db = await getDb();
  return db.select().from(memories).where(eq(memories.ownerId, user.userId));
}

/** The turn ids the member's memories were learned from. */
async function sourceTurns(user: SignedUpUser): Promise<Set<string>> {
  return new Set((await memoriesOf(user)).flatMap((row) => row.sources.map((s) => s.turnId)));
}

describe("regular-chat-memory-digest", () => {
  it("I14.6 T19 a busy organization is digested at most once per 15 minutes and every turn within 30; a quiet one 15 minutes after its turn; organizations do not wait for each other", async () => {
    const clock = runners.clock();
    const start = clock.now();
    const runner = runnerOf(regularChatMemoryDigest, clock, "digest-flow");
    const busy = await regularMember("Busy Member");
    const quiet = await regularMember("Quiet Member");
    const enqueuedAt = new Map<string, number>();
    const digestedAt = new Map<string, number>();
    const noteDigested = async () => {
      for (const turnId of await sourceTurns(busy.user)) {
        if (!digestedAt.has(turnId)) digestedAt.set(turnId, clock.now());
      }
    };

    // A turn every minute for 45 minutes, each stating a fact of its own.
    for (let minute = 0; minute < 45; minute++) {
      const event = await turnOf(busy, fact(minute), clock.now());
      enqueuedAt.set((event.data as { turnId: string }).turnId, clock.now());
      await enqueue(runner, event);
      if (minute === 5) {
        await enqueue(runner, await turnOf(quiet, "I sail the catamaran on Sundays.", clock.now()));
      }
      await runner.runDue();
      await noteDigested();
      clock.advance(MINUTE);
    }
    // Then quiet: the clock goes on minute by minute until the last turns are digested.
    for (let minute = 45; minute < 65; minute++) {
      await runner.runDue();
      await noteDigested();
      clock.advance(MINUTE);
    }

    const runs = await runsOf(busy.user.organizationId);
    expect(runs.map((at) => (at - start) / MINUTE)).toEqual([15, 31, 47]);
    for (const [index, at] of runs.entries()) {
      if (index > 0) expect(at - (runs[index - 1] ?? 0)).toBeGreaterThanOrEqual(15 * MINUTE);
    }
    // Every turn digested, each within 30 minutes of its end, once.
    expect(digestedAt.size).toBe(45);
    for (const [turnId, at] of enqueuedAt) {
      const digested = digestedAt.get(turnId) ?? Number.POSITIVE_INFINITY;
      expect(digested - at).toBeLessThanOrEqual(30 * MINUTE);
    }
    const rows = await memoriesOf(busy.user);
    expect(rows).toHaveLength(45);
    expect(rows.every((row) => row.sources.length === 1)).toBe(true);

    // The quiet organization's one turn (minute 5) ran 15 minutes later, on its own schedule.
    expect((await runsOf(quiet.user.organizationId)).map((at) => (at - start) / MINUTE)).toEqual([
      20,
    ]);
    expect((await memoriesOf(quiet.user)).map((row) => row.text)).toEqual([
      "I sail the catamaran on Sundays.",
    ]);
  });

  it("I14.6 one run reads every slice since the cursor, round by round, and moves the cursor with its memories", async () => {
    const clock = runners.clock();
    const runner = runnerOf(regularChatMemoryDigest, clock, "digest-rounds");
    const member = await regularMember("Many Turns Member");
    const events: JobEvent[] = [];
    for (let index = 0; index < 45; index++) {
      events.push(await turnOf(member, fact(index), clock.now()));
    }
    await enqueue(runner, ...events);
    clock.advance(15 * MINUTE - 1);
    expect(await runner.runDue()).toBe(0);
    expect(await digestCursor(member.user.organizationId)).toBeNull();
    clock.advance(1);
    expect(await runner.runDue()).toBe(1);
    expect(await memoriesOf(member.user)).toHaveLength(45);
    // Two rounds (40 and 5 slices): the cursor moved twice, to the last turn's end.
    expect(await digestCursor(member.user.organizationId)).toMatchObject({ version: 2 });
    const db = await getDb();
    const [job] = await db
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.functionId, regularChatMemoryDigest.id),
          eq(jobs.debounceKey, member.user.organizationId),
          eq(jobs.state, "completed"),
          eq(jobs.attempts, 1),
        ),
      );
    expect(Object.keys(job?.steps as object)).toEqual(
      expect.arrayContaining([
        "read-slices",
        "write-memories",
        "read-slices-2",
        "write-memories-2",
        "read-slices-3",
      ]),
    );
  });

  it("I14.6 a repeated fact reinforces its memory, by normalized text or by a vector at least 0.92 similar, instead of adding a row", async () => {
    const clock = runners.clock();
    const runner = runnerOf(regularChatMemoryDigest, clock, "digest-dedup");
    const member = await regularMember("Dedup Member");
    const first = await turnOf(
      member,
      "My team deploys the billing service on Thursdays.",
      clock.now(),
    );
    const equal = await turnOf(
      member,
      "my team deploys the BILLING service, on thursdays!",
      clock.now(),
    );
    await enqueue(runner, first, equal);
    clock.advance(15 * MINUTE);
    await runner.runDue();
    let rows = await memoriesOf(member.user);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      text: "My team deploys the billing service on Thursdays.",
      importance: 6,
    });
    expect(rows[0]?.sources.map((source) => source.turnId)).toEqual([
      (first.data as { turnId: string }).turnId,
      (equal.data as { turnId: string }).turnId,
    ]);

    // Another wording whose vector is the same (stems), and a different fact.
    const near = await turnOf(
      member,
      "My team deploys the billing services on Thursday.",
      clock.now(),
    );
    const other = await turnOf(
      member,
      "My team ships the payroll service on Fridays.",
      clock.now(),
    );
    await enqueue(runner, near, other);
    clock.advance(15 * MINUTE);
    await runner.runDue();
    rows = await memoriesOf(member.user);
    expect(rows.map((row) => row.text).sort()).toEqual([
      "My team deploys the billing service on Thursdays.",
      "My team ships the payroll service on Fridays.",
    ]);
    const billing = rows.find((row) => row.text.includes("billing"));
    expect(billing?.importance).toBe(7);
    expect(billing?.sources).toHaveLength(3);
  });

  it("I14.6 a run that dies after its write committed is taken over without writing twice; the cursor moved once", async () => {
    const clock = runners.clock();
    const member = await regularMember("Crash Member");
    const event = await turnOf(member, "I store the kayak paddles in shed four.", clock.now());
    // The first process commits its write, then hangs there: it died before recording the step.
    let release: () => void = () => {};
    const hung = new Promise<void>((resolve) => {
      release = resolve;
    });
    let committed = 0;
    const dying: AnyJobDefinition = {
      ...regularChatMemoryDigest,
      handler: (context) =>
        regularChatMemoryDigest.handler({
          ...context,
          step: {
            run: async (id, body) => {
              const result = await context.step.run(id, body);
              if (id === "write-memories") {
                committed++;
                await hung;
              }
              return result;
            },
          } as JobStep,
        }),
    };
    const first = runnerOf(dying, clock, "digest-dies");
    await enqueue(first, event);
    clock.advance(15 * MINUTE);
    void first.runDue();
    await expect.poll(() => committed, { timeout: 10_000 }).toBe(1);
    expect(await memoriesOf(member.user)).toHaveLength(1);
    const cursor = await digestCursor(member.user.organizationId);
    expect(cursor?.version).toBe(1);

    // Its lease lapses; another process takes the job over with the steps it recorded.
    clock.advance(5 * MINUTE);
    const second = runnerOf(regularChatMemoryDigest, clock, "digest-takes-over");
    expect(await second.runDue()).toBe(1);
    const rows = await memoriesOf(member.user);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      importance: 5,
      sources: [
        { turnId: (event.data as { turnId: string }).turnId, messageId: expect.any(String) },
      ],
    });
    expect(await digestCursor(member.user.organizationId)).toEqual(cursor);

    // A turn after the crash is digested by the next run, the earlier one not again.
    const later = await turnOf(member, "I store the life jackets in shed five.", clock.now());
    await enqueue(second, later);
    clock.advance(15 * MINUTE);
    expect(await second.runDue()).toBe(1);
    expect((await memoriesOf(member.user)).map((row) => [row.text, row.importance]).sort()).toEqual(
      [
        ["I store the kayak paddles in shed four.", 5],
        ["I store the life jackets in shed five.", 5],
      ],
    );
    expect((await digestCursor(member.user.organizationId))?.version).toBe(2);
    release();
  });

  it("I14.6 a turn that ended before the cursor but became visible after it (a late commit on another server) is digested, once", async () => {
    const clock = runners.clock();
    const runner = runnerOf(regularChatMemoryDigest, clock, "digest-late");
    const member = await regularMember("Late Commit Member");
    await enqueue(runner, await turnOf(member, fact(1), clock.now()));
    clock.advance(15 * MINUTE);
    expect(await runner.runDue()).toBe(1);
    const cursor = await digestCursor(member.user.organizationId);
    if (!cursor) throw new Error("no cursor");

    // This turn's end is stamped a minute before the cursor, as a closing statement that started
    // before the digest read but committed after it would be.
    const late = await turnOf(member, fact(2), clock.now());
    const db = await getDb();
    const lateId = (late.data as { turnId: string }).turnId;
    await db
      .update(turns)
      .set({ endedAt: new Date(new Date(cursor.endedAt).getTime() - MINUTE) })
      .where(eq(turns.id, lateId));
    await enqueue(runner, late);
    clock.advance(15 * MINUTE);
    expect(await runner.runDue()).toBe(1);
    let rows = await memoriesOf(member.user);
    expect(rows.map((row) => row.text).sort()).toEqual([fact(1), fact(2)].sort());
    expect(rows.every((row) => row.sources.length === 1 && row.importance === 5)).toBe(true);

    // The next run reads neither again.
    await enqueue(runner, await turnOf(member, fact(3), clock.now()));
    clock.advance(15 * MINUTE);
    expect(await runner.runDue()).toBe(1);
    rows = await memoriesOf(member.user);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.sources.length === 1 && row.importance === 5)).toBe(true);
  });

  it("I14.6 onboarding turns are not digested: post-chat-memory has them", async () => {
    const clock = runners.clock();
    const runner = runnerOf(regularChatMemoryDigest, clock, "digest-onboarding");
    const member = await regularMember("Onboarding Digest Member");
    const started = await member.user.client.json<{ state: string }>("/api/onboarding", {
      method: "POST",
    });
    expect(started.body.state).toBe("onboarding");
    const onboardingTurn = await turnOf(member, "I repair fishing nets in winter.", clock.now());
    // The regular digest is not even started by an onboarding turn's event.
    const marked = {
      ...onboardingTurn,
      data: { ...(onboardingTurn.data as object), onboarding: true },
    };
    await enqueue(runner, marked);
    clock.advance(15 * MINUTE);
    expect(await runner.runDue()).toBe(0);
    // A later regular turn's digest reads past it without a memory from it.
    const completed = await member.user.client.fetch("/api/onboarding/complete", {
      method: "POST",
    });
    expect(completed.status).toBe(200);
    const regular = await turnOf(member, "I paint the hull every spring.", clock.now());
    await enqueue(runner, regular);
    clock.advance(15 * MINUTE);
    expect(await runner.runDue()).toBe(1);
    expect((await memoriesOf(member.user)).map((row) => row.text)).toEqual([
      "I paint the hull every spring.",
    ]);
  });

  it("I14.6 on Inngest's engine the same declaration digests the organization's slices", async () => {
    const member = await regularMember("Inngest Digest Member");
    const event = await turnOf(member, "I brew coffee with a copper kettle.", Date.now());
    const fn = inngestFunctions().find(
      (candidate) => candidate.opts.id === regularChatMemoryDigest.id,
    );
    if (!fn) throw new Error("no digest function");
    expect(fn.opts).toMatchObject({
      debounce: { key: "event.data.organizationId", period: "15m", timeout: "15m" },
      concurrency: { key: "event.data.organizationId", limit: 1 },
    });
    const { result, error } = await new InngestTestEngine({ function: fn }).execute({
      events: [event as never],
    });
    expect(error).toBeUndefined();
    expect(result).toEqual({ slices: 1, created: 1, reinforced: 0 });
    expect((await memoriesOf(member.user)).map((row) => row.text)).toEqual([
      "I brew coffee with a copper kettle.",
    ]);
  });
});
