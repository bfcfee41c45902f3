// The shapes of a workstream: its row as the table holds it, and the summary the service hands
// out to API routes, the sidebar, the admin console and the live channel, derived from the row.
// Busy state is `isRunning` / `isCompacting`, never a run id.
import type { workstreams } from "@/db/schema";

/** A workstream as its table holds it. */
export type WorkstreamRow = typeof workstreams.$inferSelect;
export type WorkstreamMode = WorkstreamRow["mode"];
export type WorkstreamStatus = WorkstreamRow["status"];

/** What a list or a live update shows of a workstream: its metadata, times as ISO text. */
export type WorkstreamSummary = Pick<
  WorkstreamRow,
  "id" | "title" | "mode" | "core" | "coreType" | "agentId" | "status" | "isCompacting"
> & {
  isRunning: boolean;
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
