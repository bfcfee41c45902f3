// What an admin can do with a background job that failed past its attempts, in either engine:
// retry it once (the engine queues its run again) or discard it. The failure record
// (`failed_jobs`, written by inngest/failures/record.ts) and the engine's run change together,
// in one transaction; the engine's part comes through the jobs port (lib/jobs/port.ts).
import "server-only";
import { and, eq } from "drizzle-orm";
import { transaction } from "@/db/client";
import { failedJobs } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";
import { failedRuns } from "./port";

type FailedJobRef = { organizationId: string; id: string };

/**
 * Runs a failed job again, once: the engine queues its run with fresh attempts (its finished
 * steps kept) and the record leaves the list, both or neither. A job that fails again is listed
 * anew. `conflict:job_retry` when the engine cannot (Inngest keeps its runs; a run past its
 * retention is gone).
 */
export async function retryFailedRun({ organizationId, id }: FailedJobRef): Promise<void> {
  const engine = failedRuns();
  const requeued = await transaction(async (tx) => {
    const [record] = await tx
      .delete(failedJobs)
      .where(and(eq(failedJobs.id, id), eq(failedJobs.organizationId, organizationId)))
      .returning({ runId: failedJobs.runId });
    if (!record) throw new AppError("not_found:job");
    if (!engine || !record.runId || !(await engine.requeue(tx, record.runId))) {
      throw new AppError("conflict:job_retry");
    }
    return true;
  });
  if (requeued) engine?.requeued();
}

/** Removes a failed job from the list, and the engine's failed run with it (when it keeps one). */
export async function discardFailedRun({ organizationId, id }: FailedJobRef): Promise<void> {
  const engine = failedRuns();
  await transaction(async (tx) => {
    const [record] = await tx
      .delete(failedJobs)
      .where(and(eq(failedJobs.id, id), eq(failedJobs.organizationId, organizationId)))
      .returning({ runId: failedJobs.runId });
    if (!record) throw new AppError("not_found:job");
    if (engine && record.runId) await engine.discard(tx, record.runId);
  });
}
