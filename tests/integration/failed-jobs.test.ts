// The admin console's failed-jobs view: an organization's jobs that gave up, metadata only,
// never another organization's, with the workstream's title while it exists; and the admin's
// hand on them through the jobs port: a retry runs the job once more, a discard removes it.

import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/db/client";
import { failedJobs, jobs, workstreams } from "@/db/schema";
import { recordJobFailure } from "@/inngest/failures/record";
import { jobNames } from "@/inngest/functions";
import { createEmbeddedRunner, type EmbeddedRunner } from "@/inngest/runner";
import { listFailedJobs } from "@/lib/admin/failed-jobs";
import { defineEvent, defineJob } from "@/lib/jobs/define";
import { turnCompleted } from "@/lib/jobs/events";
import { startOutbox, stopOutbox } from "@/lib/jobs/port";
import { AppError } from "@/lib/kernel/errors";
import { appHarness } from "../support/harness";
import { createGroup } from "./workstreams-support/helpers";

const app = appHarness();

function eventFor(workstreamId: string, organizationId: string) {
  return {
    id: crypto.randomUUID(),
    name: turnCompleted.name,
    ts: Date.now(),
    data: {
      turnId: "t",
      workstreamId,
      organizationId,
      userId: null,
      completed: true,
      untitled: true,
      compact: false,
    },
  };
}

describe("failed jobs", () => {
  it("J4 lists an organization's failed jobs, newest first, with codes only and nobody else's", async () => {
    const ours = await app.signUp("Failed Owner");
    const theirs = await app.signUp("Other Owner");
    const kept = await createGroup(ours.client, "Harbor plan");
    const gone = await createGroup(ours.client, "Old plan");
    const foreign = await createGroup(theirs.client, "Their plan");
    const secret = "Zq7secret in a raw error";
    await recordJobFailure({
      functionId: "title-generation",
      event: eventFor(kept.id, ours.organizationId),
      runId: "run-1",
      attempts: 4,
      error: new Error(`duplicate key value violates "workstreams" ${secret}`),
    });
    await recordJobFailure({
      functionId: "recent-activity",
      event: eventFor(gone.id, ours.organizationId),
      runId: "run-2",
      attempts: 4,
      error: new AppError("model:rate_limit"),
    });
    await recordJobFailure({
      functionId: "title-generation",
      event: eventFor(foreign.id, theirs.organizationId),
      runId: "run-3",
      attempts: 4,
      error: new Error(secret),
    });
    const db = await getDb();
    await db.delete(workstreams).where(eq(workstreams.id, gone.id));

    const listed = await listFailedJobs({
      organizationId: ours.organizationId,
      jobNames: jobNames(),
    });
    expect(
      listed.map(({ functionName, workstreamTitle, attempts, errorCode }) => ({
        functionName,
        workstreamTitle,
        attempts,
        errorCode,
      })),
    ).toEqual([
      {
        functionName: "Recent activity",
        workstreamTitle: null,
        attempts: 4,
        errorCode: "model:rate_limit",
      },
      {
        functionName: "Title generation",
        workstreamTitle: "Harbor plan",
        attempts: 4,
        errorCode: "job:failed",
      },
    ]);
    expect(JSON.stringify(await db.select().from(failedJobs))).not.toContain("Zq7secret");
  });

  it("J4 recording the same failure twice keeps one record", async () => {
    const owner = await app.signUp("Twice Owner");
    const group = await createGroup(owner.client);
    const event = eventFor(group.id, owner.organizationId);
    for (let i = 0; i < 2; i++) {
      await recordJobFailure({
        functionId: "title-generation",
        event,
        runId: "r",
        attempts: 4,
        error: new Error("x"),
      });
    }
    expect(await listFailedJobs({ organizationId: owner.organizationId })).toHaveLength(1);
  });
});

describe("failed jobs: retry and discard", () => {
  const flaky = defineEvent(
    "test/j4-flaky",
    z.object({ organizationId: z.string(), note: z.string() }),
  );
  let failing = true;
  const runs: string[] = [];
  const fn = defineJob({
    id: "j4-flaky",
    name: "J4 flaky job",
    trigger: flaky,
    flow: { retries: 1 },
    handler: async ({ event, step }) => {
      await step.run("work", async () => {
        if (failing) throw new AppError("model:rate_limit");
        runs.push(event.data.note);
      });
    },
  });
  let runner: EmbeddedRunner | undefined;

  afterEach(async () => {
    await stopOutbox();
    await runner?.stop();
  });

  /** The embedded engine with the flaky job, its hand on failed runs given to the jobs port. */
  function startEngine(): EmbeddedRunner {
    const started = createEmbeddedRunner({
      functions: [fn],
      processId: "j4-engine",
      backoffMs: () => 0,
    });
    runner = started;
    startOutbox(
      {
        kind: "embedded",
        enqueue: async (tx, events) => {
          await started.enqueue(tx, events);
        },
        enqueued: () => started.wake(),
      },
      {
        pollIntervalMs: 3_600_000,
        failedRuns: {
          requeue: (tx, runId) => started.requeueFailed(tx, runId),
          discard: (tx, runId) => started.discardFailed(tx, runId),
          requeued: () => started.wake(),
        },
      },
    );
    return started;
  }

  async function failedRun(engine: EmbeddedRunner, organizationId: string, note: string) {
    const event = {
      id: crypto.randomUUID(),
      name: flaky.name,
      data: { organizationId, note },
      ts: Date.now(),
    };
    await engine.enqueue(await getDb(), [event]);
    // Two attempts (retries: 1), both failing: the job ends failed and is recorded.
    await engine.runDue();
    const [listed] = (await listFailedJobs({ organizationId })).filter(
      (job) => job.functionId === fn.id,
    );
    if (!listed) throw new Error("the job was not recorded as failed");
    expect(listed).toMatchObject({ attempts: 2, errorCode: "model:rate_limit" });
    return listed;
  }

  it("J4 a job failing past its attempts is listed with its code; the admin's retry runs it once and it leaves the list", async () => {
    const owner = await app.signUp("Retry Owner");
    const engine = startEngine();
    failing = true;
    const listed = await failedRun(engine, owner.organizationId, "retried");
    failing = false;
    const retried = await owner.client.json(`/api/admin/jobs/${listed.id}/retry`, {
      method: "POST",
    });
    expect(retried.status).toBe(200);
    expect(await listFailedJobs({ organizationId: owner.organizationId })).toEqual([]);
    await engine.runDue();
    expect(runs.filter((note) => note === "retried")).toEqual(["retried"]);
    const [row] = (
      await (await getDb()).select().from(jobs).where(eq(jobs.functionId, fn.id))
    ).filter((job) => (job.event as { data: { note: string } }).data.note === "retried");
    expect(row?.state).toBe("completed");
    // Retried once: a second retry of the same record finds nothing.
    const again = await owner.client.json<{ error: { code: string } }>(
      `/api/admin/jobs/${listed.id}/retry`,
      { method: "POST" },
    );
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("not_found:job");
  });

  it("J4 discard removes a failed job and its run; a member, another organization, or Inngest's runs cannot be handled here", async () => {
    const owner = await app.signUp("Discard Owner");
    const other = await app.signUp("Other Discard Owner");
    const member = await app.memberOf(owner.organizationId, "member", "Plain Member");
    const engine = startEngine();
    failing = true;
    const listed = await failedRun(engine, owner.organizationId, "discarded");

    const byMember = await member.client.json(`/api/admin/jobs/${listed.id}`, { method: "DELETE" });
    expect(byMember.status).toBe(403);
    const byOther = await other.client.json(`/api/admin/jobs/${listed.id}`, { method: "DELETE" });
    expect(byOther.status).toBe(404);

    const discarded = await owner.client.json(`/api/admin/jobs/${listed.id}`, { method: "DELETE" });
    expect(discarded.status).toBe(200);
    expect(await listFailedJobs({ organizationId: owner.organizationId })).toEqual([]);
    const left = (
      await (await getDb()).select().from(jobs).where(eq(jobs.functionId, fn.id))
    ).filter((job) => (job.event as { data: { note: string } }).data.note === "discarded");
    expect(left).toEqual([]);

    // Inngest keeps its own runs (no hand given to the port): the retry is refused, the record kept.
    const kept = await failedRun(engine, owner.organizationId, "inngest");
    await stopOutbox();
    const refused = await owner.client.json<{ error: { code: string } }>(
      `/api/admin/jobs/${kept.id}/retry`,
      { method: "POST" },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("conflict:job_retry");
    expect(await listFailedJobs({ organizationId: owner.organizationId })).toHaveLength(1);
  });
});
