// Workstream ids. Direct workstreams have a deterministic id (seed 001), so creating one twice is
// the same workstream.
export function directWorkstreamId({
  agentId,
  userId,
  organizationId,
}: {
  agentId: string;
  userId: string;
  organizationId: string;
}): string {
  return `direct_${agentId}_user_${userId}_organization_${organizationId}`;
}

export function newWorkstreamId(): string {
  return `ws_${crypto.randomUUID().replaceAll("-", "")}`;
}
