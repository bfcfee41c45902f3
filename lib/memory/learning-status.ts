// Whether a member's agents are learning from them: the newest failure, in the last day, of a
// learning job (onboarding extraction, the digest, skill extraction) that covered one of their
// turns, read from the failed-jobs record (inngest/failures/record.ts writes it). Shown on the member's
// memories page, so a broken model configuration is not silent.
import "server-only";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { failedJobs } from "@/db/schema";

const WINDOW_MS = 24 * 60 * 60 * 1000;

export type LearningFailureView = { code: string; message: string; failedAt: string };

export async function learningFailure({
  organizationId,
  userId,
  now = Date.now(),
}: {
  organizationId: string;
  userId: string;
  now?: number;
}): Promise<LearningFailureView | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      code: failedJobs.errorCode,
      message: failedJobs.errorMessage,
      failedAt: failedJobs.failedAt,
    })
    .from(failedJobs)
    .where(
      and(
        eq(failedJobs.organizationId, organizationId),
        gt(failedJobs.failedAt, new Date(now - WINDOW_MS)),
        sql`${userId} = any(${failedJobs.memberIds})`,
      ),
    )
    .orderBy(desc(failedJobs.failedAt))
    .limit(1);
  return row
    ? { code: row.code, message: row.message, failedAt: row.failedAt.toISOString() }
    : null;
}
