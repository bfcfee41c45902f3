// Prepared statements run on generic plans once Postgres has seen them a few times: a state
// sent as a parameter then hides which rows the statement wants, and a partial index on those
// rows cannot be used. The job claim and the open-turn filter name their states in the text.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { isOpenSql, turns } from "@/db/schema";
import { JOBS } from "@/inngest/functions";
import { planOf } from "@/inngest/runner/plan";
import { claimFree, hasFlowControl } from "@/inngest/runner/store";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

let testDb: TestDatabase;
const seen: string[] = [];

beforeAll(async () => {
  testDb = await useTestDatabase({ onQuery: (text) => seen.push(text) });
});
afterAll(async () => {
  await releaseTestDatabase(testDb);
});

/** The plan Postgres would use for `text` with its parameters unknown (a generic plan). */
async function genericPlan(text: string): Promise<string> {
  const { handle } = testDb;
  if (handle.kind !== "pglite") throw new Error("expected PGlite");
  // The simple protocol: an extended one would bind the statement's $n. Without sequential
  // scans the planner takes any index it is allowed to use, even on tiny tables.
  const results = await handle.client.exec(
    `set enable_seqscan = off; explain (generic_plan) ${text}; reset enable_seqscan;`,
  );
  const explained = results.find((result) => result.rows.length > 0);
  return (explained?.rows ?? []).map((row) => Object.values(row)[0]).join("\n");
}

describe("generic plans of the hot statements", () => {
  it("the job claim finds due jobs through the partial index on due rows", async () => {
    const plans = JOBS.map(planOf);
    const free = plans.filter((plan) => !hasFlowControl(plan));
    const controlled = plans.filter(hasFlowControl);
    const db = await getDb();
    const from = seen.length;
    await claimFree(db, free, controlled, "test-owner", Date.now(), 30_000, 8);
    const claim = seen.slice(from).find((text) => text.trimStart().startsWith("with claimed"));
    expect(claim).toBeDefined();
    const plan = await genericPlan(claim ?? "");
    expect(plan).toContain("jobs_due_idx");
    expect(plan).not.toMatch(/Seq Scan on jobs/);
  });

  it("a workstream's open turn is found through the one-open-turn index", async () => {
    const db = await getDb();
    const query = db
      .select({ id: turns.id })
      .from(turns)
      .where(and(eq(turns.workstreamId, "ws"), isOpenSql(turns.state)))
      .toSQL();
    const plan = await genericPlan(query.sql);
    expect(plan).toContain("turns_one_open_per_workstream");
  });
});
