// The plain shapes the workstream service hands out: to API routes, the sidebar, the admin
// console and the live channel. Busy state is `isRunning` / `isCompacting`, never a run id.
export type WorkstreamMode = "direct" | "group";
export type WorkstreamStatus = "regular" | "archived";

export type WorkstreamSummary = {
  id: string;
  title: string;
  mode: WorkstreamMode;
  core: boolean;
  coreType: string | null;
  agentId: string;
  status: WorkstreamStatus;
  isRunning: boolean;
  isCompacting: boolean;
  createdAt: string;
  /** The last turn (or creation): the time the sidebar shows and sorts by. */
  lastActivityAt: string;
  /** A message arrived from another workstream since the owner last opened this one. */
  hasUnread?: boolean;
};

export type ActivityEntry = {
  workstreamId: string;
  title: string;
  mode: WorkstreamMode;
  core: boolean;
  summary: string;
  occurredAt: string;
};

/** Whose workstreams a call may touch: the owner's own, or (admins) the organization's. */
export type WorkstreamScope =
  | { kind: "owner"; userId: string; organizationId: string }
  | { kind: "organization"; organizationId: string };

export function ownerScope(viewer: { userId: string; organizationId: string }): WorkstreamScope {
  return { kind: "owner", userId: viewer.userId, organizationId: viewer.organizationId };
}
