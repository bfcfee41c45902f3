// Two embedded runners, as two server processes would be (their own process ids and their own
// connections to one Postgres), race over the same pending jobs: each job runs on one of them at
// a time, and its effect is there exactly once.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type DatabaseHandle, type Db, openDatabase } from "@/db/client";
import { jobs } from "@/db/schema";
import { createEmbeddedRunner } from "@/inngest/runner";
import {
  type AnyJobDefinition,
  defineEvent,
  defineJob,
  type FlowControl,
  type JobEvent,
} from "@/lib/jobs/define";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

let testDb: TestDatabase;
let second: DatabaseHandle;
beforeAll(async () => {
  testDb = await useTestDatabase();
  if (!testDb.url) throw new Error("a Postgres test database has a url");
  second = await openDatabase({ kind: "postgres", url: testDb.url, max: 10 });
  await testDb.handle.db.execute(sql`
    create table j2_starts (job_id text not null, owner text not null)`);
  await testDb.handle.db.execute(sql`
    create table j2_effects (job_id text primary key, owner text not null)`);
});
afterAll(async () => {
  await second?.close();
  await releaseTestDatabase(testDb);
});

function count(rows: unknown): number {
  const [row] = rows as { n: string | number }[];
  return Number(row?.n ?? 0);
}

describe("embedded runners on two connections", () => {
  it("J2 two runners race over 200 pending jobs: each effect exactly once, never one job on both at once", async () => {
    const trigger = defineEvent("test/j2-race", z.object({ n: z.number() }));
    const running = new Set<string>();
    const overlapping: string[] = [];
    const inProcess = (owner: string, db: Db) =>
      defineJob({
        id: "j2-race",
        name: "J2 race",
        trigger,
        flow: {},
        handler: async ({ step, runId }) => {
          if (running.has(runId)) overlapping.push(runId);
          running.add(runId);
          try {
            await db.execute(
              sql`insert into j2_starts (job_id, owner) values (${runId}, ${owner})`,
            );
            await step.run("effect", async () => {
              await db.execute(sql`
                insert into j2_effects (job_id, owner) values (${runId}, ${owner})
                on conflict (job_id) do nothing`);
              return owner;
            });
          } finally {
            running.delete(runId);
          }
        },
      });
    const dbA = testDb.handle.db;
    const dbB = second.db;
    const a = createEmbeddedRunner({
      functions: [inProcess("a", dbA)],
      processId: "j2-server-a",
      db: async () => dbA,
    });
    const b = createEmbeddedRunner({
      functions: [inProcess("b", dbB)],
      processId: "j2-server-b",
      db: async () => dbB,
    });
    const events: JobEvent[] = Array.from({ length: 200 }, (_, n) => ({
      id: `j2-race-${n}`,
      name: trigger.name,
      data: { n },
      ts: Date.now(),
    }));
    expect(await a.enqueue(dbA, events)).toBe(200);

    const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
    await Promise.all([a.stop(), b.stop()]);

    expect(ranA + ranB).toBe(200);
    // Both took part: the race was real.
    expect(ranA).toBeGreaterThan(0);
    expect(ranB).toBeGreaterThan(0);
    expect(overlapping).toEqual([]);
    const starts = await dbA.execute(sql`select count(*) as n from j2_starts`);
    const started = await dbA.execute(sql`select count(distinct job_id) as n from j2_starts`);
    const effects = await dbA.execute(sql`select count(*) as n from j2_effects`);
    const completed = await dbA.execute(
      sql`select count(*) as n from ${jobs} where ${jobs.state} = 'completed' and ${jobs.functionId} = 'j2-race'`,
    );
    expect({
      starts: count(starts),
      started: count(started),
      effects: count(effects),
      completed: count(completed),
    }).toEqual({ starts: 200, started: 200, effects: 200, completed: 200 });
  });

  it("J2 flow control holds across two runners: concurrency 1 per key, throttle 3 per period", async () => {
    const clock = { now: () => Date.UTC(2026, 10, 23, 12) };
    const trigger = defineEvent("test/j2-flow", z.object({ key: z.string(), n: z.number() }));
    const declare = (id: string, flow: FlowControl, owner: string, db: Db): AnyJobDefinition =>
      defineJob({
        id,
        name: `J2 ${id}`,
        trigger,
        flow,
        handler: async ({ event, runId }) => {
          const limited = flow.concurrency !== undefined;
          const key = event.data.key;
          if (limited) {
            holding.set(key, (holding.get(key) ?? 0) + 1);
            most.set(key, Math.max(most.get(key) ?? 0, holding.get(key) ?? 0));
          }
          try {
            // A round trip on this runner's own connection, while the other one claims.
            await db.execute(
              sql`insert into j2_starts (job_id, owner) values (${runId}, ${owner})`,
            );
          } finally {
            if (limited) holding.set(key, (holding.get(key) ?? 1) - 1);
          }
        },
      });
    // Runs of the concurrency-limited function at once, by key (now and at most).
    const holding = new Map<string, number>();
    const most = new Map<string, number>();
    const inProcess = (owner: string, db: Db) =>
      createEmbeddedRunner({
        functions: [
          declare(
            "j2-one-at-a-time",
            { concurrency: { key: "event.data.key", limit: 1 } },
            owner,
            db,
          ),
          declare(
            "j2-three-per-minute",
            { throttle: { key: "event.data.key", limit: 3, period: "1m" } },
            owner,
            db,
          ),
        ],
        clock,
        processId: `j2-flow-${owner}`,
        db: async () => db,
      });
    const a = inProcess("a", testDb.handle.db);
    const b = inProcess("b", second.db);
    const events: JobEvent[] = Array.from({ length: 20 }, (_, n) => ({
      id: `j2-flow-${n}`,
      name: trigger.name,
      data: { key: n % 2 === 0 ? "even" : "odd", n },
      ts: clock.now(),
    }));
    // Each event starts both functions.
    expect(await a.enqueue(testDb.handle.db, events)).toBe(40);

    const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
    await Promise.all([a.stop(), b.stop()]);

    // Every concurrency-limited job ran, one per key at a time; the throttled ones started three
    // per key (the clock does not move), the rest wait.
    expect(ranA + ranB).toBe(20 + 6);
    expect(Object.fromEntries(most)).toEqual({ even: 1, odd: 1 });
    const throttled = await testDb.handle.db.execute(sql`
      select ${jobs.state} as state, ${jobs.throttleKey} as key, count(*) as n from ${jobs}
      where ${jobs.functionId} = 'j2-three-per-minute'
      group by 1, 2 order by 1, 2`);
    expect(
      (throttled as unknown as { state: string; key: string; n: string }[]).map(
        ({ state, key, n }) => `${state} ${key} ${n}`,
      ),
    ).toEqual(["completed even 3", "completed odd 3", "queued even 7", "queued odd 7"]);
  });
  it("J2 debounce across two connections: 20 events of one key enqueued at once leave one queued job, the latest", async () => {
    const clock = { now: () => Date.UTC(2026, 10, 23, 12) };
    const trigger = defineEvent("test/j2-debounce", z.object({ key: z.string(), n: z.number() }));
    const declare = () =>
      defineJob({
        id: "j2-debounce-race",
        name: "J2 debounce race",
        trigger,
        flow: { debounce: { key: "event.data.key", period: "10s" } },
        handler: async () => {},
      });
    const runnerOn = (owner: string, db: Db) =>
      createEmbeddedRunner({
        functions: [declare()],
        clock,
        processId: `j2-debounce-${owner}`,
        db: async () => db,
      });
    const a = runnerOn("a", testDb.handle.db);
    const b = runnerOn("b", second.db);
    const events: JobEvent[] = Array.from({ length: 20 }, (_, n) => ({
      id: `j2-debounce-${n}`,
      name: trigger.name,
      data: { key: "k", n },
      ts: clock.now() + n,
    }));
    // Each event on its own, half through each connection, all at once.
    await Promise.all(
      events.map((event, n) =>
        n % 2 === 0 ? a.enqueue(testDb.handle.db, [event]) : b.enqueue(second.db, [event]),
      ),
    );
    await Promise.all([a.stop(), b.stop()]);
    const rows = (await testDb.handle.db.execute(sql`
      select ${jobs.state} as state, ${jobs.eventId} as event_id from ${jobs}
      where ${jobs.functionId} = 'j2-debounce-race'`)) as unknown as {
      state: string;
      event_id: string;
    }[];
    expect(rows).toHaveLength(20);
    // Whatever order they took the lock in, only the latest event's row still waits.
    expect(rows.filter((row) => row.state === "queued").map((row) => row.event_id)).toEqual([
      "j2-debounce-19",
    ]);
  });
});
