// Telling the owner's open tabs that a workstream's state, plan or memory block changed. Only the
// reason travels; the panel reloads the context view, so nothing of the content is broadcast and
// admins (the organization topic) never receive it.
import "server-only";
import { publishLive } from "@/lib/stream/fanout-instance";
import type { ContextChangeReason } from "@/lib/stream/live";

export async function publishContextChange({
  organizationId,
  ownerId,
  workstreamId,
  reason,
}: {
  organizationId: string;
  ownerId: string | null;
  workstreamId: string;
  reason: ContextChangeReason;
}): Promise<void> {
  if (!ownerId) return;
  await publishLive({
    organizationId,
    userId: ownerId,
    event: { type: "context", workstreamId, reason },
  });
}
