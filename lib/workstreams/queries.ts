// Reading and provisioning workstreams for the turn engine. Ownership is part of every lookup:
// another user's or organization's workstream is simply not found.
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import type { Viewer } from "@/lib/auth/viewer";
import { getAgent } from "@/lib/config";
import { AppError } from "@/lib/http/errors";
import { directWorkstreamId } from "./ids";

export type WorkstreamRow = typeof workstreams.$inferSelect;

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
  if (!row) throw new AppError("not_found:workstream", "This workstream does not exist.");
  return row;
}

/** Creates the viewer's direct workstream with `agentId` if it is missing (idempotent). */
export async function ensureDirectWorkstream({
  viewer,
  agentId,
}: {
  viewer: Viewer;
  agentId: string;
}): Promise<WorkstreamRow> {
  const agent = getAgent(agentId);
  if (!agent) throw new AppError("bad_request:agent", `Unknown agent "${agentId}".`);
  const id = directWorkstreamId({
    agentId,
    userId: viewer.userId,
    organizationId: viewer.organizationId,
  });
  const db = await getDb();
  await db
    .insert(workstreams)
    .values({
      id,
      organizationId: viewer.organizationId,
      ownerId: viewer.userId,
      mode: "direct",
      agentId,
      title: agent.name,
    })
    .onConflictDoNothing();
  return getOwnedWorkstream({ viewer, workstreamId: id });
}
