// The embedded job runner against the database, with a clock the test moves by hand: what is due
// runs and what is not waits, flow control holds, steps are memoized across retries, a job that
// gives up is recorded without its content, a bad event is refused, and jobs outlive a runner.
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getDb, transaction } from "@/db/client";
import { failedJobs, jobEvents, jobs } from "@/db/schema";
import { createEmbeddedRunner, type EmbeddedRunner } from "@/inngest/runner";
import {
  type AnyJobDefinition,
  defineEvent,
  defineJob,
  type FlowControl,
  type JobContext,
  type JobEvent,
} from "@/lib/jobs/define";
import { createOutbox } from "@/lib/jobs/outbox";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

let testDb: TestDatabase;
/** The statements sent while a test records (BEGIN/COMMIT not). */
let recording: string[] | null = null;
beforeAll(async () => {
  testDb = await useTestDatabase({
    onQuery: (query) => {
      // Not the runner's: postgres-js looks up array types once per new pooled connection.
      if (/from pg_catalog\.pg_type/.test(query)) return;
      if (!/^\s*(begin|commit|rollback)\b/i.test(query)) recording?.push(query);
    },
  });
});
afterAll(async () => {
  await releaseTestDatabase(testDb);
});

const runners: EmbeddedRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  vi.restoreAllMocks();
});

type Data = { key?: string; note: string };
const schema = z.object({ key: z.string().optional(), note: z.string() });

function fakeClock(start = Date.UTC(2026, 10, 23, 12)) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

let sequence = 0;
/** A function on its own event name, so the tests of this file never run each other's jobs. */
function testFunction(
  flow: FlowControl,
  handler: (context: JobContext<Data>) => Promise<unknown>,
): AnyJobDefinition {
  const name = `test/j2-${++sequence}`;
  return defineJob<Data>({
    id: `j2-fn-${sequence}`,
    name: `J2 test function ${sequence}`,
    trigger: defineEvent(name, schema),
    flow,
    handler,
  });
}

function eventFor(fn: AnyJobDefinition, data: unknown, ts = Date.now()): JobEvent {
  return { id: crypto.randomUUID(), name: fn.trigger.name, data, ts };
}

/** A function without flow control that notes each run's event, and the notes. */
function notingFunction() {
  const ran: string[] = [];
  const fn = testFunction({}, async ({ event }) => {
    ran.push(event.data.note);
  });
  return { ran, fn };
}

/** A function debounced 10 s by `event.data.key` that records each run's note, and its runner. */
function debouncedByKey(clock = fakeClock()) {
  const seen: string[] = [];
  const fn = testFunction({ debounce: { key: "event.data.key", period: "10s" } }, async (c) => {
    seen.push(c.event.data.note);
  });
  return { clock, seen, fn, runner: runnerFor(fn, clock) };
}

function runnerFor(
  fn: AnyJobDefinition,
  clock: { now(): number },
  options: {
    processId?: string;
    backoffMs?: (attempt: number) => number;
    busy?: () => boolean;
    maxYieldMs?: number;
  } = {},
): EmbeddedRunner {
  const runner = createEmbeddedRunner({
    functions: [fn],
    clock,
    processId: options.processId ?? "j2-runner",
    backoffMs: options.backoffMs ?? (() => 60_000),
    busy: options.busy,
    maxYieldMs: options.maxYieldMs,
  });
  runners.push(runner);
  return runner;
}

async function enqueue(runner: EmbeddedRunner, ...events: JobEvent[]): Promise<number> {
  return runner.enqueue(await getDb(), events);
}

async function jobsOf(fn: AnyJobDefinition) {
  const db = await getDb();
  return db.select().from(jobs).where(eq(jobs.functionId, fn.id));
}

function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("embedded runner", () => {
  it("J2 a backed-off job does not run before its time and runs after it", async () => {
    const clock = fakeClock();
    let calls = 0;
    const fn = testFunction({ retries: 1 }, async () => {
      calls++;
      if (calls === 1) throw new Error("first attempt fails");
    });
    const runner = runnerFor(fn, clock, { backoffMs: () => 5_000 });
    await enqueue(runner, eventFor(fn, { note: "hello" }));

    expect(await runner.runDue()).toBe(1);
    clock.advance(4_999);
    expect(await runner.runDue()).toBe(0);
    expect(calls).toBe(1);
    clock.advance(1);
    expect(await runner.runDue()).toBe(1);
    expect(calls).toBe(2);
    const [job] = await jobsOf(fn);
    expect(job).toMatchObject({ state: "completed", attempts: 2, leaseOwner: null });
  });

  it("J2 a run settling with nothing more due costs no claim; a retry due at once runs in the same pass", async () => {
    const clock = fakeClock();
    const fn = testFunction({}, async () => {});
    const runner = runnerFor(fn, clock);
    await enqueue(runner, eventFor(fn, { note: "one" }));
    recording = [];
    expect(await runner.runDue()).toBe(1);
    const statements = recording;
    recording = null;
    // The claim that took it, and its completion: no second claim to learn that nothing is left.
    expect(statements).toHaveLength(2);
    expect(statements[0]).toContain("\"state\" = 'running'");
    expect((await jobsOf(fn))[0]?.state).toBe("completed");

    let calls = 0;
    const flaky = testFunction({ retries: 1 }, async () => {
      calls++;
      if (calls === 1) throw new Error("first attempt fails");
    });
    const retrying = runnerFor(flaky, clock, { backoffMs: () => 0 });
    await enqueue(retrying, eventFor(flaky, { note: "again" }));
    expect(await retrying.runDue()).toBe(2);
    expect(calls).toBe(2);
    expect((await jobsOf(flaky))[0]).toMatchObject({ state: "completed", attempts: 2 });
  });

  it("J2 enqueueing one event twice adds one job", async () => {
    const clock = fakeClock();
    const fn = testFunction({}, async () => {});
    const runner = runnerFor(fn, clock);
    const event = eventFor(fn, { note: "once" });
    expect(await enqueue(runner, event)).toBe(1);
    expect(await enqueue(runner, event)).toBe(0);
    expect(await runner.runDue()).toBe(1);
    expect(await enqueue(runner, event)).toBe(0);
    expect(await runner.runDue()).toBe(0);
    expect(await jobsOf(fn)).toHaveLength(1);
  });

  it("J2 a function's when filter decides which of its events start a run", async () => {
    const clock = fakeClock();
    const seen: string[] = [];
    const fn = defineJob<Data>({
      ...testFunction({}, async () => {}),
      when: { key: "event.data.key", equals: "wanted" },
      handler: async (c) => {
        seen.push(c.event.data.note);
      },
    });
    const runner = runnerFor(fn, clock);
    expect(
      await enqueue(
        runner,
        eventFor(fn, { key: "wanted", note: "runs" }),
        eventFor(fn, { key: "other", note: "skipped" }),
        eventFor(fn, { note: "no key" }),
      ),
    ).toBe(1);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual(["runs"]);
  });

  it("J2 jobs enqueued in a transaction that rolls back are not there", async () => {
    const clock = fakeClock();
    const plain = testFunction({}, async () => {});
    const debounced = testFunction(
      { debounce: { key: "event.data.key", period: "10s" } },
      async () => {},
    );
    const runner = createEmbeddedRunner({
      functions: [plain, debounced],
      clock,
      processId: "j2-tx",
    });
    runners.push(runner);
    const events = [eventFor(plain, { note: "x" }), eventFor(debounced, { key: "k", note: "y" })];
    await expect(
      transaction(async (tx) => {
        expect(await runner.enqueue(tx, events)).toBe(2);
        throw new Error("the caller's change failed");
      }),
    ).rejects.toThrow("the caller's change failed");
    expect([...(await jobsOf(plain)), ...(await jobsOf(debounced))]).toEqual([]);
    await transaction((tx) => runner.enqueue(tx, events));
    expect((await jobsOf(plain)).length + (await jobsOf(debounced)).length).toBe(2);
  });

  it("J2 debounce: three events within the period run once, with the latest event", async () => {
    const { clock, seen, fn, runner } = debouncedByKey();
    for (const note of ["first", "second", "third"]) {
      await enqueue(runner, eventFor(fn, { key: "k", note }, clock.now()));
      expect(await runner.runDue()).toBe(0);
      clock.advance(3_000);
    }
    // The last event came 3 s ago: the run is due 10 s after it.
    clock.advance(6_999);
    expect(await runner.runDue()).toBe(0);
    clock.advance(1);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual(["third"]);
    // An event without the key is not debounced: it runs at once.
    await enqueue(runner, eventFor(fn, { note: "keyless" }, clock.now()));
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual(["third", "keyless"]);
  });

  it("J2 debounce: events of one key handed over together run once, with the latest; a re-send adds nothing", async () => {
    const { clock, seen, fn, runner } = debouncedByKey();
    const at = clock.now();
    const batch = [
      eventFor(fn, { key: "k", note: "second" }, at + 2),
      eventFor(fn, { key: "k", note: "third" }, at + 3),
      eventFor(fn, { key: "k", note: "first" }, at + 1),
      eventFor(fn, { key: "other", note: "alone" }, at + 1),
    ];
    expect(await enqueue(runner, ...batch)).toBe(2);
    expect(await enqueue(runner, ...batch)).toBe(0);
    expect(await jobsOf(fn)).toHaveLength(4);
    clock.advance(10_000);
    expect(await runner.runDue()).toBe(2);
    expect(seen.toSorted()).toEqual(["alone", "third"]);
  });

  it("J2 debounce: an enqueue is the key's lock and one statement; an event older than the one waiting replaces nothing", async () => {
    const { clock, seen, fn, runner } = debouncedByKey();
    const at = clock.now();
    expect(await enqueue(runner, eventFor(fn, { key: "k", note: "first" }, at))).toBe(1);
    recording = [];
    expect(await enqueue(runner, eventFor(fn, { key: "k", note: "second" }, at + 5))).toBe(1);
    const statements = recording;
    recording = null;
    expect(statements).toHaveLength(2);
    expect(statements[0]).toContain("pg_advisory_xact_lock");
    // Sent out of order: kept (a re-send is recognised) as absorbed, and "second" still waits.
    expect(await enqueue(runner, eventFor(fn, { key: "k", note: "late" }, at + 1))).toBe(0);
    const rows = (await jobsOf(fn)).map((row) => [
      (row.event as { data: Data }).data.note,
      row.state,
      row.lastError,
    ]);
    expect(rows.toSorted()).toEqual([
      ["first", "completed", "debounced"],
      ["late", "completed", "debounced"],
      ["second", "queued", null],
    ]);
    clock.advance(10_000);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual(["second"]);
  });

  it("J2 debounce: the timeout caps how long events can push the run back", async () => {
    const clock = fakeClock();
    const seen: string[] = [];
    const fn = testFunction(
      { debounce: { key: "event.data.key", period: "10s", timeout: "30s" } },
      async (c) => {
        seen.push(c.event.data.note);
      },
    );
    const runner = runnerFor(fn, clock);
    for (const note of ["a", "b", "c", "d"]) {
      if (note !== "a") clock.advance(8_000);
      await enqueue(runner, eventFor(fn, { key: "k", note }, clock.now()));
      expect(await runner.runDue()).toBe(0);
    }
    // Events at 0, 8, 16 and 24 s: without the cap the run would wait until 34 s; it runs at 30 s.
    clock.advance(5_999);
    expect(await runner.runDue()).toBe(0);
    clock.advance(1);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual(["d"]);
  });

  it("J2 throttle: 2 per 10 s, five events: two run now, the rest as the clock moves", async () => {
    const clock = fakeClock();
    const seen: string[] = [];
    const fn = testFunction(
      { throttle: { key: "event.data.key", limit: 2, period: "10s" } },
      async (c) => {
        seen.push(c.event.data.note);
      },
    );
    const runner = runnerFor(fn, clock);
    for (const note of ["1", "2", "3", "4", "5"]) {
      await enqueue(runner, eventFor(fn, { key: "k", note }, clock.now()));
      clock.advance(1);
    }
    expect(await runner.runDue()).toBe(2);
    expect(await runner.runDue()).toBe(0);
    // Events without the key are not throttled.
    await enqueue(runner, eventFor(fn, { note: "x" }), eventFor(fn, { note: "y" }));
    expect(await runner.runDue()).toBe(2);
    clock.advance(5_000);
    expect(await runner.runDue()).toBe(0);
    clock.advance(5_000);
    expect(await runner.runDue()).toBe(2);
    clock.advance(10_000);
    expect(await runner.runDue()).toBe(1);
    expect(seen.toSorted()).toEqual(["1", "2", "3", "4", "5", "x", "y"]);
    expect((await jobsOf(fn)).every((job) => job.state === "completed")).toBe(true);
  });

  it("J2 concurrency 1 per key: one key's jobs never overlap, different keys' do", async () => {
    const clock = fakeClock();
    const running = new Map<string, number>();
    let most = { perKey: 0, total: 0 };
    const started: string[] = [];
    const release = gate();
    const fn = testFunction({ concurrency: { key: "event.data.key", limit: 1 } }, async (c) => {
      const key = c.event.data.key ?? "";
      started.push(c.event.data.note);
      running.set(key, (running.get(key) ?? 0) + 1);
      const total = [...running.values()].reduce((sum, n) => sum + n, 0);
      most = {
        perKey: Math.max(most.perKey, running.get(key) ?? 0),
        total: Math.max(most.total, total),
      };
      await release.opened;
      running.set(key, (running.get(key) ?? 0) - 1);
    });
    const runner = runnerFor(fn, clock);
    await enqueue(
      runner,
      eventFor(fn, { key: "a", note: "a1" }),
      eventFor(fn, { key: "a", note: "a2" }),
      eventFor(fn, { key: "b", note: "b1" }),
    );
    const done = runner.runDue();
    // One job of each key starts; the second of key "a" waits for the first.
    await vi.waitFor(() => expect(started).toHaveLength(2), { timeout: 20_000 });
    expect(started.filter((note) => note.startsWith("a"))).toHaveLength(1);
    expect(started).toContain("b1");
    release.open();
    expect(await done).toBe(3);
    expect(most).toEqual({ perKey: 1, total: 2 });
  });

  it("J2 a handler failing twice then succeeding runs 3 times and its first step once", async () => {
    const clock = fakeClock();
    let runs = 0;
    let firstStep = 0;
    const results: unknown[] = [];
    const fn = testFunction({ retries: 3 }, async ({ step, attempt }) => {
      runs++;
      const stored = await step.run("first", () => {
        firstStep++;
        return { at: attempt, nothing: undefined };
      });
      results.push(stored);
      if (attempt < 2) throw new Error("not yet");
    });
    const runner = runnerFor(fn, clock, { backoffMs: () => 1_000 });
    await enqueue(runner, eventFor(fn, { note: "retry me" }));
    for (let round = 0; round < 3; round++) {
      expect(await runner.runDue()).toBe(1);
      clock.advance(1_000);
    }
    expect(await runner.runDue()).toBe(0);
    expect({ runs, firstStep }).toEqual({ runs: 3, firstStep: 1 });
    // Every attempt sees the stored JSON: the first attempt's result, undefined fields dropped.
    expect(results).toStrictEqual([{ at: 0 }, { at: 0 }, { at: 0 }]);
    const [job] = await jobsOf(fn);
    expect(job).toMatchObject({ state: "completed", attempts: 3, steps: { first: { at: 0 } } });
  });

  it("J2 a hanging handler fails after its run timeout with job:timeout and is retried", async () => {
    const clock = fakeClock();
    let runs = 0;
    const fn = testFunction({ retries: 1, timeout: "1s" }, async ({ attempt }) => {
      runs++;
      // The first attempt never settles: without a timeout it would renew its lease forever.
      if (attempt === 0) await new Promise(() => {});
    });
    const failures: string[] = [];
    const runner = createEmbeddedRunner({
      functions: [fn],
      clock,
      processId: "j2-timeout",
      backoffMs: () => 0,
      onFailure: async (failure) => {
        failures.push(String(failure.error));
      },
    });
    runners.push(runner);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await enqueue(runner, eventFor(fn, { note: "hang once" }));
    expect(await runner.runDue()).toBe(2);
    expect(runs).toBe(2);
    expect(failures).toEqual([]);
    const [job] = await jobsOf(fn);
    expect(job).toMatchObject({ state: "completed", attempts: 2 });
    expect(warn.mock.calls.flat().join(" ")).toContain("failed (job:timeout");
  }, 20_000);

  it("J2 a handler that hangs on every attempt ends failed with job:timeout", async () => {
    const clock = fakeClock();
    const fn = testFunction({ retries: 0, timeout: "1s" }, () => new Promise(() => {}));
    const runner = runnerFor(fn, clock);
    await enqueue(runner, eventFor(fn, { note: "hang always" }));
    expect(await runner.runDue()).toBe(1);
    const [job] = await jobsOf(fn);
    expect(job).toMatchObject({ state: "failed", attempts: 1, lastError: "job:timeout" });
    const db = await getDb();
    const [failure] = await db.select().from(failedJobs).where(eq(failedJobs.functionId, fn.id));
    expect(failure).toMatchObject({ errorCode: "job:timeout" });
  }, 20_000);

  it("J2 a step result jsonb cannot hold is stored with U+FFFD and the job completes", async () => {
    const clock = fakeClock();
    const results: unknown[] = [];
    const fn = testFunction({}, async ({ step }) => {
      results.push(await step.run("model output", () => ({ text: "a\u0000b" })));
    });
    const runner = runnerFor(fn, clock);
    await enqueue(runner, eventFor(fn, { note: "nul" }));
    expect(await runner.runDue()).toBe(1);
    const [job] = await jobsOf(fn);
    expect(job).toMatchObject({
      state: "completed",
      steps: { "model output": { text: "a\uFFFDb" } },
    });
    expect(results).toEqual([{ text: "a\uFFFDb" }]);
  });

  it("J2 a handler that always fails ends failed with one failed_jobs row of metadata only", async () => {
    const clock = fakeClock();
    const secret = "the-member-wrote-this-secret";
    let runs = 0;
    const fn = testFunction({ retries: 1 }, async () => {
      runs++;
      throw new Error(`boom ${secret}`);
    });
    const runner = runnerFor(fn, clock, { backoffMs: () => 0 });
    const event = eventFor(fn, { note: secret });
    await enqueue(runner, event);
    expect(await runner.runDue()).toBe(2);
    expect(runs).toBe(2);
    const [job] = await jobsOf(fn);
    expect(job).toMatchObject({ state: "failed", attempts: 2, lastError: "job:failed" });
    const db = await getDb();
    const failures = await db.select().from(failedJobs).where(eq(failedJobs.functionId, fn.id));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ eventId: event.id, runId: job?.id, attempts: 2 });
    expect(JSON.stringify(failures)).not.toContain(secret);
    expect(job?.lastError).not.toContain(secret);
  });

  it("J2 a bad event is refused: logged by function and id, nothing written, no failure row", async () => {
    const clock = fakeClock();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let runs = 0;
    const fn = testFunction({ retries: 2 }, async ({ step }) => {
      runs++;
      await step.run("write", () => "written");
    });
    const runner = runnerFor(fn, clock, { backoffMs: () => 0 });
    const content = "private words of a member";
    const event = eventFor(fn, { note: 42, key: content });
    await enqueue(runner, event);
    expect(await runner.runDue()).toBe(1);
    expect(runs).toBe(0);
    const [job] = await jobsOf(fn);
    expect(job).toMatchObject({ state: "failed", attempts: 1, steps: {} });
    expect(job?.lastError).toMatch(/^refused: /);
    expect(job?.lastError).not.toContain(content);
    const db = await getDb();
    expect(await db.select().from(failedJobs).where(eq(failedJobs.functionId, fn.id))).toEqual([]);
    const logged = warn.mock.calls.map((call) => String(call[0])).join("\n");
    expect(logged).toContain(fn.id);
    expect(logged).toContain(event.id);
    expect(logged).not.toContain(content);
  });

  it("J2 a pending job survives its runner: a new runner runs it", async () => {
    const clock = fakeClock();
    let runs = 0;
    const fn = testFunction({}, async () => {
      runs++;
    });
    const first = runnerFor(fn, clock, { processId: "j2-before-restart" });
    await enqueue(first, eventFor(fn, { note: "later" }));
    await first.stop();
    const second = runnerFor(fn, clock, { processId: "j2-after-restart" });
    expect(await second.runDue()).toBe(1);
    expect(runs).toBe(1);
    const [job] = await jobsOf(fn);
    expect(job?.state).toBe("completed");
  });

  it("J2 an expired lease is taken over; the old owner's writes and completion are refused", async () => {
    const clock = fakeClock();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const stalled = gate();
    const inOldRun = gate();
    const ownerStepRuns: string[] = [];
    // One function, as each of two server processes has it: the handler says which one ran.
    const trigger = defineEvent(`test/j2-lease-${++sequence}`, schema);
    const inProcess = (who: "old" | "new") =>
      defineJob<Data>({
        id: `j2-lease-${sequence}`,
        name: "J2 lease test",
        trigger,
        flow: {},
        handler: async ({ step }) => {
          await step.run("owner", () => {
            ownerStepRuns.push(who);
            return who;
          });
          if (who === "old") {
            inOldRun.open();
            await stalled.opened;
          }
          await step.run("last", () => who);
        },
      });
    const oldFn = inProcess("old");
    const old = runnerFor(oldFn, clock, { processId: "j2-old-owner" });
    const next = runnerFor(inProcess("new"), clock, { processId: "j2-new-owner" });
    await enqueue(old, eventFor(oldFn, { note: "contested" }));

    const oldRun = old.runDue();
    await inOldRun.opened;
    // Its finished step is stored at once, without waiting for the run to end (only a run's
    // last step waits for the write that settles the run); then the old owner stalls past its
    // lease (it would have renewed it had it been alive).
    for (let tries = 0; ; tries++) {
      const [row] = await jobsOf(oldFn);
      if ((row?.steps as Record<string, unknown> | undefined)?.owner === "old") break;
      if (tries > 200) throw new Error("the old owner's finished step was not stored");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    clock.advance(30_001);
    expect(await next.runDue()).toBe(1);
    const [taken] = await jobsOf(oldFn);
    expect(taken).toMatchObject({
      state: "completed",
      attempts: 2,
      leaseOwner: null,
      steps: { owner: "old", last: "new" },
    });
    // The new owner got the old owner's stored result instead of running that step again.
    expect(ownerStepRuns).toEqual(["old"]);

    stalled.open();
    expect(await oldRun).toBe(1);
    const [after] = await jobsOf(oldFn);
    expect(after).toEqual(taken);
    expect(warn.mock.calls.map((call) => String(call[0])).join("\n")).toContain("lost its lease");
    const db = await getDb();
    expect(await db.select().from(failedJobs).where(eq(failedJobs.functionId, oldFn.id))).toEqual(
      [],
    );
  });

  it("J2 a job whose last attempt died with its process ends failed and is recorded", async () => {
    const clock = fakeClock();
    const stalled = gate();
    const started = gate();
    let runs = 0;
    const fn = testFunction({ retries: 0 }, async () => {
      runs++;
      started.open();
      await stalled.opened;
    });
    const dead = runnerFor(fn, clock, { processId: "j2-dies" });
    const event = eventFor(fn, { note: "orphan" });
    await enqueue(dead, event);
    const deadRun = dead.runDue();
    await started.opened;
    clock.advance(30_001);
    const next = runnerFor(fn, clock, { processId: "j2-survives" });
    expect(await next.runDue()).toBe(1);
    expect(runs).toBe(1);
    const [job] = await jobsOf(fn);
    expect(job).toMatchObject({ state: "failed", lastError: "job:failed", leaseOwner: null });
    const db = await getDb();
    const failures = await db.select().from(failedJobs).where(eq(failedJobs.functionId, fn.id));
    expect(failures).toMatchObject([{ eventId: event.id, attempts: 1 }]);
    stalled.open();
    await deadRun;
  });

  it("J2 the old completed rows are cleaned up, the recent and pending ones kept", async () => {
    const clock = fakeClock();
    const fn = testFunction({}, async () => {});
    const runner = createEmbeddedRunner({
      functions: [fn],
      clock,
      processId: "j2-cleanup",
      pollIntervalMs: 5,
    });
    runners.push(runner);
    await enqueue(runner, eventFor(fn, { note: "old" }));
    expect(await runner.runDue()).toBe(1);
    clock.advance(86_400_000 + 1);
    const recent = eventFor(fn, { note: "recent" });
    await enqueue(runner, recent);
    expect(await runner.runDue()).toBe(1);
    // A job not due yet: kept whatever its age.
    const pending = eventFor(fn, { note: "pending" });
    await enqueue(runner, pending);
    const db = await getDb();
    await db
      .update(jobs)
      .set({ runAt: new Date(clock.now() + 3_600_000) })
      .where(and(eq(jobs.functionId, fn.id), eq(jobs.eventId, pending.id)));
    runner.start();
    await vi.waitFor(async () => expect(await jobsOf(fn)).toHaveLength(2), {
      timeout: 20_000,
    });
    const left = (await jobsOf(fn)).map((job) => job.eventId).toSorted();
    expect(left).toEqual([recent.id, pending.id].toSorted());
  });

  it("J2 a failed job is kept 30 days by default (a day's completed ones are gone by then), then deleted", async () => {
    const clock = fakeClock(Date.UTC(2027, 0, 1));
    const fn = testFunction({ retries: 0 }, async () => {
      throw new Error("always fails");
    });
    const runner = createEmbeddedRunner({
      functions: [fn],
      clock,
      processId: "j2-keep-failed",
      pollIntervalMs: 5,
      onFailure: async () => {},
    });
    runners.push(runner);
    await enqueue(runner, eventFor(fn, { note: "failed" }));
    expect(await runner.runDue()).toBe(1);
    expect((await jobsOf(fn)).map((job) => job.state)).toEqual(["failed"]);
    // Past a completed job's day, within the failed one's 30 days: kept.
    clock.advance(2 * 86_400_000);
    runner.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await jobsOf(fn)).toHaveLength(1);
    await runner.stop();
    clock.advance(28 * 86_400_000 + 1);
    runner.start();
    await vi.waitFor(async () => expect(await jobsOf(fn)).toEqual([]), { timeout: 20_000 });
  });

  it("J3 outbox events are taken over once, even by two servers' outboxes at once, and their jobs run once", async () => {
    const clock = fakeClock(Date.now() + 1_000);
    const { ran, fn } = notingFunction();
    const outboxes = ["j3-a", "j3-b"].map((processId) => {
      const runner = runnerFor(fn, clock, { processId });
      return {
        runner,
        outbox: createOutbox({
          clock,
          batchSize: 5,
          delivery: {
            kind: "embedded",
            enqueue: async (tx, taken) => {
              await runner.enqueue(tx, taken);
            },
            enqueued: () => {},
          },
        }),
      };
    });
    const events = Array.from({ length: 20 }, (_, i) => eventFor(fn, { note: `n${i}` }));
    const db = await getDb();
    await db
      .insert(jobEvents)
      .values(events.map((event) => ({ id: event.id, name: event.name, data: event.data })));
    const taken = await Promise.all(outboxes.map(({ outbox }) => outbox.drain()));
    expect(taken.reduce((sum, count) => sum + count, 0)).toBe(events.length);
    const pending = await db.select().from(jobEvents).where(isNull(jobEvents.dispatchedAt));
    expect(pending.filter((row) => events.some((event) => event.id === row.id))).toEqual([]);
    expect(await jobsOf(fn)).toHaveLength(events.length);
    await Promise.all(outboxes.map(({ runner }) => runner.runDue()));
    expect(ran.sort()).toEqual(events.map((event) => (event.data as Data).note).sort());
  });

  it("J3 the outbox's transactional hand-over marks the rows as it locks them, and a failed enqueue leaves them pending", async () => {
    // The outbox compares its clock with the rows' times, which the database wrote: now.
    const { clock, seen, fn, runner } = debouncedByKey(fakeClock(Date.now() + 1_000));
    const events = ["one", "two"].map((note, i) =>
      eventFor(fn, { key: "k", note }, clock.now() + i),
    );
    const db = await getDb();
    await db.insert(jobEvents).values(
      events.map((event) => ({
        id: event.id,
        name: event.name,
        data: event.data,
        ts: new Date(event.ts),
      })),
    );
    const pendingOf = async () =>
      (await db.select().from(jobEvents).where(isNull(jobEvents.dispatchedAt))).filter((row) =>
        events.some((event) => event.id === row.id),
      );
    let failing = true;
    const outbox = createOutbox({
      clock,
      delivery: {
        kind: "embedded",
        enqueue: async (tx, taken) => {
          if (failing) throw new Error("enqueue fails");
          await runner.enqueue(tx, taken);
        },
        enqueued: () => {},
      },
    });
    await expect(outbox.drain()).rejects.toThrow("enqueue fails");
    expect(await pendingOf()).toHaveLength(2);
    expect(await jobsOf(fn)).toEqual([]);
    failing = false;
    recording = [];
    expect(await outbox.drain()).toBeGreaterThanOrEqual(2);
    const statements = recording;
    recording = null;
    expect(await pendingOf()).toEqual([]);
    // Of the outbox's own statements, one is in the transaction: the locking read that marks.
    // (The hourly cleanup of old handed-over rows, a delete, runs with the first pass too.)
    const outboxWrites = statements.filter((text) =>
      /^\s*(select|update)[\s\S]*"job_events"/.test(text),
    );
    expect(outboxWrites).toHaveLength(1);
    expect(outboxWrites[0]).toMatch(/^\s*update "job_events" set "dispatched_at"/);
    clock.advance(10_000);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual(["two"]);
  });

  it("J2 debounce with period and timeout alike (the digest's shape): later events of the key never move the run; it comes once, at the cap, with the latest event", async () => {
    const clock = fakeClock(Date.now() + 1_000);
    const seen: string[] = [];
    const fn = testFunction(
      { debounce: { key: "event.data.key", period: "5m", timeout: "5m" } },
      async (c) => {
        seen.push(c.event.data.note);
      },
    );
    const runner = runnerFor(fn, clock);
    await enqueue(runner, eventFor(fn, { key: "k", note: "first" }, clock.now()));
    clock.advance(60_000);
    await enqueue(runner, eventFor(fn, { key: "k", note: "later" }, clock.now()));
    clock.advance(3 * 60_000);
    await enqueue(runner, eventFor(fn, { key: "k", note: "latest" }, clock.now()));
    // Another key waits on its own.
    await enqueue(runner, eventFor(fn, { key: "other", note: "other" }, clock.now()));
    clock.advance(60_000 - 1);
    expect(await runner.runDue()).toBe(0);
    clock.advance(1);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual(["latest"]);
    clock.advance(4 * 60_000);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual(["latest", "other"]);
  });

  it("J3 a wake after the commit hands the events over and runs them without waiting for a poll", async () => {
    const clock = fakeClock(Date.now() + 1_000);
    const { ran, fn } = notingFunction();
    const runner = runnerFor(fn, clock);
    const outbox = createOutbox({
      clock,
      pollIntervalMs: 3_600_000,
      delivery: {
        kind: "embedded",
        enqueue: async (tx, taken) => {
          await runner.enqueue(tx, taken);
        },
        enqueued: () => runner.wake(),
      },
    });
    const event = eventFor(fn, { note: "written" }, clock.now());
    const db = await getDb();
    await db.insert(jobEvents).values({ id: event.id, name: event.name, data: event.data });
    outbox.wake();
    await vi.waitFor(() => expect(ran).toEqual(["written"]));
    const [row] = await db.select().from(jobEvents).where(eq(jobEvents.id, event.id));
    expect(row?.dispatchedAt).not.toBeNull();
    await outbox.stop();
  });

  it("J2 jobs wait while live turns run in the process, and run anyway after the longest wait", async () => {
    const clock = fakeClock();
    const order: string[] = [];
    const fn = testFunction({}, async ({ event }) => {
      order.push(`job ${(event.data as Data).note}`);
    });
    let turnRunning = true;
    const polite = createEmbeddedRunner({
      functions: [fn],
      clock,
      processId: "j2-polite",
      busy: () => turnRunning,
      maxYieldMs: 60_000,
    });
    await enqueue(polite, eventFor(fn, { note: "after the turn" }));
    const ran = polite.runDue();
    await new Promise((resolve) => setTimeout(resolve, 100));
    order.push("turn ends");
    turnRunning = false;
    expect(await ran).toBe(1);
    expect(order).toEqual(["turn ends", "job after the turn"]);

    const bounded = createEmbeddedRunner({
      functions: [fn],
      clock,
      processId: "j2-bounded",
      busy: () => true,
      maxYieldMs: 50,
    });
    await enqueue(bounded, eventFor(fn, { note: "despite a busy server" }));
    expect(await bounded.runDue()).toBe(1);
    expect(order.at(-1)).toBe("job despite a busy server");
  });
});
