// Publishing workstream changes on the live channel, after they are committed. Other domains
// that change what a workstream summary shows (compaction flipping isCompacting, the title job)
// call notifyWorkstreamChanged with the reason.

import "server-only";
import { publishLive } from "@/lib/stream/fanout-instance";
import type { WorkstreamChangeReason } from "@/lib/stream/live";
import { loadSummaryRow, type SummaryRow, toSummary } from "./summary";

export async function publishWorkstreamChange(
  row: SummaryRow,
  reason: WorkstreamChangeReason,
): Promise<void> {
  await publishLive({
    organizationId: row.organizationId,
    userId: row.ownerId,
    event: { type: "workstream", reason, workstream: toSummary(row) },
  });
}

export async function publishWorkstreamDeleted(row: {
  id: string;
  organizationId: string;
  ownerId: string | null;
}): Promise<void> {
  await publishLive({
    organizationId: row.organizationId,
    userId: row.ownerId,
    event: { type: "workstream_deleted", workstreamId: row.id },
  });
}

/** Re-reads the workstream and publishes its summary; a deleted workstream is skipped. */
export async function notifyWorkstreamChanged({
  workstreamId,
  reason,
}: {
  workstreamId: string;
  reason: WorkstreamChangeReason;
}): Promise<void> {
  const row = await loadSummaryRow(workstreamId);
  if (row) await publishWorkstreamChange(row, reason);
}
