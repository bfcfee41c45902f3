// Two embedded runners, as two server processes would be (their own process ids and their own
// connections to one Postgres), race over the same pending jobs: each job runs on one of them at
// a time, and its effect is there exactly once.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type DatabaseHandle, type Db, openDatabase } from "@/db/client";
import { jobs } from "@/db/schema";
import { defineEvent, defineJob, type JobEvent } from "@/inngest/define";
import { createEmbeddedRunner } from "@/inngest/runner";
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
});
