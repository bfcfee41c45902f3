// Reading workstreams as summaries. `isRunning` comes from the turns table (an open turn that is
// not waiting for an approval), so it is true from the moment a message is accepted until the
// turn ends, on every server process, and never exposes the run id.
import "server-only";
import { and, eq, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreamHasRunningTurn, workstreams } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";
import type { WorkstreamRow, WorkstreamScope, WorkstreamSummary } from "./types";

/** The row's own columns of a summary: what a write that frees a workstream hands back. */
export const summaryRowColumns = {
  id: workstreams.id,
  organizationId: workstreams.organizationId,
  ownerId: workstreams.ownerId,
  title: workstreams.title,
  mode: workstreams.mode,
  core: workstreams.core,
  coreType: workstreams.coreType,
  agentId: workstreams.agentId,
  status: workstreams.status,
  isCompacting: workstreams.isCompacting,
  createdAt: workstreams.createdAt,
  updatedAt: workstreams.updatedAt,
};

export const summaryColumns = {
  ...summaryRowColumns,
  unreadSince: workstreams.unreadSince,
  isRunning: workstreamHasRunningTurn,
};

/** A workstream read for its summary: the row's summary columns and whether a turn runs. */
export type SummaryRow = Pick<
  WorkstreamRow,
  | "id"
  | "organizationId"
  | "ownerId"
  | "title"
  | "mode"
  | "core"
  | "coreType"
  | "agentId"
  | "status"
  | "isCompacting"
  | "createdAt"
  | "updatedAt"
> &
  Partial<Pick<WorkstreamRow, "unreadSince">> & { isRunning: boolean };

export function toSummary(row: SummaryRow): WorkstreamSummary {
  return {
    id: row.id,
    title: row.title,
    mode: row.mode,
    core: row.core,
    coreType: row.coreType,
    agentId: row.agentId,
    status: row.status,
    // Postgres drivers agree on booleans for columns, not always for expressions.
    isRunning: row.isRunning === true || String(row.isRunning) === "true",
    isCompacting: row.isCompacting,
    createdAt: row.createdAt.toISOString(),
    lastActivityAt: row.updatedAt.toISOString(),
    hasUnread: Boolean(row.unreadSince),
  };
}

export function scopeCondition(scope: WorkstreamScope): SQL | undefined {
  return scope.kind === "owner"
    ? and(
        eq(workstreams.organizationId, scope.organizationId),
        eq(workstreams.ownerId, scope.userId),
      )
    : eq(workstreams.organizationId, scope.organizationId);
}

/** The workstream as a summary row if `scope` may see it, else null. */
export async function findSummaryRow({
  scope,
  workstreamId,
}: {
  scope: WorkstreamScope;
  workstreamId: string;
}): Promise<SummaryRow | null> {
  const db = await getDb();
  const [row] = await db
    .select(summaryColumns)
    .from(workstreams)
    .where(and(eq(workstreams.id, workstreamId), scopeCondition(scope)))
    .limit(1);
  return row ?? null;
}

/** Like findSummaryRow, but another user's or organization's workstream is a 404. */
export async function requireSummaryRow(input: {
  scope: WorkstreamScope;
  workstreamId: string;
}): Promise<SummaryRow> {
  const row = await findSummaryRow(input);
  if (!row) throw new AppError("not_found:workstream");
  return row;
}

/** A workstream's summary by id alone, for internal callers (live updates). */
export async function loadSummaryRow(workstreamId: string): Promise<SummaryRow | null> {
  const db = await getDb();
  const [row] = await db
    .select(summaryColumns)
    .from(workstreams)
    .where(eq(workstreams.id, workstreamId))
    .limit(1);
  return row ?? null;
}
