// Renaming, archiving, unarchiving and deleting workstreams. Only standard group workstreams
// change: direct and core ones are immutable (409 with a code). Delete needs the workstream to be
// archived first and no turn open in it. `scope` says whose workstreams the caller may touch: the
// owner's own, or (admin console) the organization's; anything outside it is a 404.
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, transaction } from "@/db/client";
import { isOpenSql, turns, workstreams } from "@/db/schema";
import { workstreamPrefix } from "@/lib/files/storage";
import { enqueueJobEvent } from "@/lib/jobs/enqueue";
import { workstreamFilesDeleted } from "@/lib/jobs/events";
import { wakeJobsSoon } from "@/lib/jobs/port";
import { AppError } from "@/lib/kernel/errors";
import { publishWorkstreamChange, publishWorkstreamDeleted } from "./live";
import { requireSummaryRow, type SummaryRow, scopeCondition, toSummary } from "./summary";
import { validTitle } from "./titles";
import type { WorkstreamScope, WorkstreamSummary } from "./types";

type Target = { scope: WorkstreamScope; workstreamId: string };

function assertMutable(row: SummaryRow, action: string): void {
  if (row.mode === "direct") {
    throw new AppError("conflict:direct_immutable", { details: { action } });
  }
  if (row.core) {
    throw new AppError("conflict:core_immutable", { details: { action } });
  }
}

export async function renameWorkstream({
  title,
  ...target
}: Target & { title: string }): Promise<WorkstreamSummary> {
  const row = await requireSummaryRow(target);
  assertMutable(row, "renamed");
  const next = validTitle(title);
  if (next === row.title) return toSummary(row);
  const db = await getDb();
  // Renaming is not activity: updatedAt (the sidebar's order and "last active") stays.
  await db
    .update(workstreams)
    .set({ title: next })
    .where(and(eq(workstreams.id, row.id), scopeCondition(target.scope)));
  const updated = { ...row, title: next };
  await publishWorkstreamChange(updated, "renamed");
  return toSummary(updated);
}

async function setStatus(
  target: Target,
  status: "regular" | "archived",
): Promise<WorkstreamSummary> {
  const row = await requireSummaryRow(target);
  assertMutable(row, status === "archived" ? "archived" : "unarchived");
  // Idempotent: archiving an archived workstream answers with it, unchanged.
  if (row.status === status) return toSummary(row);
  const db = await getDb();
  await db
    .update(workstreams)
    .set({ status })
    .where(and(eq(workstreams.id, row.id), scopeCondition(target.scope)));
  const updated = { ...row, status };
  await publishWorkstreamChange(updated, status === "archived" ? "archived" : "unarchived");
  return toSummary(updated);
}

export function archiveWorkstream(target: Target): Promise<WorkstreamSummary> {
  return setStatus(target, "archived");
}

export function unarchiveWorkstream(target: Target): Promise<WorkstreamSummary> {
  return setStatus(target, "regular");
}

/**
 * Deletes an archived group workstream with everything that belongs to it: messages, turns,
 * turn events and recent activity go by their `on delete cascade` foreign keys, so the one
 * DELETE inside this transaction removes all of it or nothing. (Memory tables of later issues
 * reference workstreams the same way, and so do files; their bytes in storage are removed by a
 * job whose event the same transaction writes.) The row is locked first so a concurrent unarchive or a
 * turn cannot slip in between the checks and the delete.
 */
export async function deleteWorkstream(target: Target): Promise<{ id: string }> {
  const row = await requireSummaryRow(target);
  assertMutable(row, "deleted");
  await transaction(async (tx) => {
    const [locked] = await tx
      .select({ status: workstreams.status })
      .from(workstreams)
      .where(and(eq(workstreams.id, row.id), scopeCondition(target.scope)))
      .for("update");
    if (!locked) throw new AppError("not_found:workstream");
    if (locked.status !== "archived") {
      throw new AppError("conflict:not_archived");
    }
    const [open] = await tx
      .select({ one: sql`1` })
      .from(turns)
      .where(and(eq(turns.workstreamId, row.id), isOpenSql(turns.state)))
      .limit(1);
    if (open) {
      throw new AppError("conflict:turn_active");
    }
    await tx.delete(workstreams).where(eq(workstreams.id, row.id));
    // Its files' rows went with it; their bytes go by a job queued in the same transaction.
    await enqueueJobEvent(tx, workstreamFilesDeleted, {
      workstreamId: row.id,
      organizationId: row.organizationId,
      prefix: workstreamPrefix(row.organizationId, row.id),
    });
  });
  wakeJobsSoon();
  await publishWorkstreamDeleted(row);
  return { id: row.id };
}
