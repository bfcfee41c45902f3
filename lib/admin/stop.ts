// An admin stops a running turn in any workstream of their organization, through the turn
// engine's stop (the same one the owner's Stop uses), which works from any server process.
import "server-only";
import { type StopResult, stopActiveTurn } from "@/lib/turns/stop";
import { requireOrganizationWorkstream } from "@/lib/workstreams/queries";

export async function stopWorkstreamAsAdmin({
  organizationId,
  workstreamId,
}: {
  organizationId: string;
  workstreamId: string;
}): Promise<StopResult> {
  await requireOrganizationWorkstream({ organizationId, workstreamId });
  // The same stop as the owner's: the turn records one reason, whoever asked.
  return stopActiveTurn({ workstreamId });
}
