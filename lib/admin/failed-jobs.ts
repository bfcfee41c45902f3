// The admin console's failed-jobs view: background jobs of the organization that gave up after
// their retries, and the admin's hand on them (retry, discard, through the jobs port). Metadata only (which function,
// which workstream by title, attempts, the error's code and sentence); there is no content in the
// record to show.
import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { failedJobs, workstreams } from "@/db/schema";
import { discardFailedRun, retryFailedRun } from "@/lib/jobs/failed-runs";

export type FailedJob = {
  id: string;
  functionId: string;
  /** The function's name, or its id when the function no longer exists. */
  functionName: string;
  workstreamId: string | null;
  /** Null when the workstream was deleted since (or the job had none). */
  workstreamTitle: string | null;
  attempts: number;
  errorCode: string;
  errorMessage: string;
  failedAt: string;
};

export const FAILED_JOBS_LIMIT = 50;

export async function listFailedJobs({
  organizationId,
  limit = FAILED_JOBS_LIMIT,
  jobNames = new Map(),
}: {
  organizationId: string;
  limit?: number;
  /** Each function's display name by its id (the engine's list); an unknown id shows as itself. */
  jobNames?: ReadonlyMap<string, string>;
}): Promise<FailedJob[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: failedJobs.id,
      functionId: failedJobs.functionId,
      workstreamId: failedJobs.workstreamId,
      workstreamTitle: workstreams.title,
      attempts: failedJobs.attempts,
      errorCode: failedJobs.errorCode,
      errorMessage: failedJobs.errorMessage,
      failedAt: failedJobs.failedAt,
    })
    .from(failedJobs)
    .leftJoin(
      workstreams,
      and(
        eq(workstreams.id, failedJobs.workstreamId),
        eq(workstreams.organizationId, organizationId),
      ),
    )
    .where(eq(failedJobs.organizationId, organizationId))
    .orderBy(desc(failedJobs.failedAt))
    .limit(limit);
  return rows.map((row) => ({
    ...row,
    functionName: jobNames.get(row.functionId) ?? row.functionId,
    failedAt: row.failedAt.toISOString(),
  }));
}

/** A failed job of the organization, run again once (see lib/jobs/failed-runs.ts). */
export function retryFailedJob(job: { organizationId: string; id: string }): Promise<void> {
  return retryFailedRun(job);
}

/** A failed job of the organization, removed with the engine's failed run. */
export function discardFailedJob(job: { organizationId: string; id: string }): Promise<void> {
  return discardFailedRun(job);
}
