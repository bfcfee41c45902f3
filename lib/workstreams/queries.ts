// Reading workstreams by id, and provisioning them for the turn engine (it relies on these names
// and signatures). Ownership is part of every lookup: another user's or organization's
// workstream is simply not found.
import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import type { Viewer } from "@/lib/auth/viewer";
import { AppError } from "@/lib/kernel/errors";
import { createWorkstream } from "./create";
import type { WorkstreamRow } from "./types";

export type { WorkstreamRow };

/** The workstream if the viewer owns it in their active organization, else 404. */
export async function getOwnedWorkstream({
  viewer,
  workstreamId,
}: {
  viewer: Viewer;
  workstreamId: string;
}): Promise<WorkstreamRow> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(workstreams)
    .where(
      and(
        eq(workstreams.id, workstreamId),
        eq(workstreams.organizationId, viewer.organizationId),
        eq(workstreams.ownerId, viewer.userId),
      ),
    )
    .limit(1);
  if (!row) throw new AppError("not_found:workstream");
  return row;
}

/**
 * Nothing when the workstream is in the organization, whoever owns it; else 404. For admins'
 * reads of one workstream (its runs, its audit, a stop).
 */
export async function requireOrganizationWorkstream({
  organizationId,
  workstreamId,
}: {
  organizationId: string;
  workstreamId: string;
}): Promise<void> {
  const db = await getDb();
  const [row] = await db
    .select({ id: workstreams.id })
    .from(workstreams)
    .where(and(eq(workstreams.id, workstreamId), eq(workstreams.organizationId, organizationId)))
    .limit(1);
  if (!row) throw new AppError("not_found:workstream");
}

/** Creates the viewer's direct workstream with `agentId` if it is missing (idempotent). */
export async function ensureDirectWorkstream({
  viewer,
  agentId,
}: {
  viewer: Viewer;
  agentId: string;
}): Promise<WorkstreamRow> {
  const { workstream } = await createWorkstream({
    userId: viewer.userId,
    organizationId: viewer.organizationId,
    mode: "direct",
    agentId,
  });
  return getOwnedWorkstream({ viewer, workstreamId: workstream.id });
}
