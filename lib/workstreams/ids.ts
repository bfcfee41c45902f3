// Workstream ids. Direct and core workstreams have deterministic ids (derived from the member and
// the agent or core type), so creating one twice is the same workstream; group workstreams get a
// random id.
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

export function coreWorkstreamId({
  coreType,
  userId,
  organizationId,
}: {
  coreType: string;
  userId: string;
  organizationId: string;
}): string {
  return `core_${coreType}_user_${userId}_organization_${organizationId}`;
}

export function newWorkstreamId(): string {
  return `ws_${crypto.randomUUID().replaceAll("-", "")}`;
}
