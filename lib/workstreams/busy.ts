// A workstream as a turn holds it: the read that opens a turn on it, and its busy flag
// (`active_run_id`), which a turn's opening claims and its close frees, each inside the turn's
// own transaction (the caller's `tx`).
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { RUNNING_STATES_LIST, workstreams } from "@/db/schema";
import type { WorkstreamRow } from "./queries";
import { type SummaryRow, summaryRowColumns } from "./summary";

/**
 * Compare-and-sets the busy flag to `runId`: free, or left by a run that no longer runs (its
 * process died, or its turn ended without clearing it), counts as free. The update takes the
 * workstream's row lock, which orders concurrent openers on every server. Returns whether the
 * flag is now this run's.
 */
export async function claimWorkstream(
  tx: Tx,
  { workstreamId, runId, turnId }: { workstreamId: string; runId: string; turnId: string },
): Promise<boolean> {
  // Spelled out with an alias: "id" inside the subquery must mean the running turn's.
  const free = sql`(${workstreams.activeRunId} is null or not exists (
    select 1 from "turns" as running
    where running."server_run_id" = "workstreams"."active_run_id"
      and running."state" in (${RUNNING_STATES_LIST}) and running."id" <> ${turnId}))`;
  const claimed = await tx
    .update(workstreams)
    .set({ activeRunId: runId })
    .where(and(eq(workstreams.id, workstreamId), free))
    .returning({ id: workstreams.id });
  return claimed.length > 0;
}

/** The workstream as a turn's close leaves it, for the live update that follows. */
export type FreedWorkstream = Omit<SummaryRow, "isRunning" | "unreadSince">;

/**
 * Clears the busy flag if `runId` still holds it, and marks the workstream's activity time.
 * Returns the workstream as it now is (null if it is gone).
 */
export async function freeWorkstream(
  tx: Tx,
  { workstreamId, runId }: { workstreamId: string; runId: string | null },
): Promise<FreedWorkstream | null> {
  const [row] = await tx
    .update(workstreams)
    .set({
      updatedAt: sql`now()`,
      activeRunId: sql`case when ${workstreams.activeRunId} = ${runId ?? ""} then null
        else ${workstreams.activeRunId} end`,
    })
    .where(eq(workstreams.id, workstreamId))
    .returning(summaryRowColumns);
  return row ?? null;
}

/**
 * The workstream a turn opens on, read inside the opening's transaction as the viewer's own
 * (another member's or organization's is not found), with whether a compaction holds it now (a
 * compaction whose lease lapsed, its process dead, does not).
 */
export async function workstreamToOpen(
  tx: Tx,
  {
    workstreamId,
    organizationId,
    userId,
  }: { workstreamId: string; organizationId: string; userId: string },
): Promise<{ workstream: WorkstreamRow; compactingNow: boolean } | null> {
  const [row] = await tx
    .select({
      workstream: workstreams,
      compactingNow: sql<boolean>`${workstreams.isCompacting}
        and coalesce(${workstreams.compactionLeaseExpiresAt} > now(), false)`,
    })
    .from(workstreams)
    .where(
      and(
        eq(workstreams.id, workstreamId),
        eq(workstreams.organizationId, organizationId),
        eq(workstreams.ownerId, userId),
      ),
    )
    .limit(1);
  return row ? { workstream: row.workstream, compactingNow: Boolean(row.compactingNow) } : null;
}
