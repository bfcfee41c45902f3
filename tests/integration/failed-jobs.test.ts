// The admin console's failed-jobs view: an organization's jobs that gave up, metadata only,
// never another organization's, with the workstream's title while it exists.

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { failedJobs, workstreams } from "@/db/schema";
import { recordJobFailure } from "@/inngest/failures/record";
import { jobNames } from "@/inngest/functions";
import { listFailedJobs } from "@/lib/admin/failed-jobs";
import { turnCompleted } from "@/lib/jobs/events";
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
