// Everything the sidebar shows on first paint, in one call for the signed-in layout: it starts
// (or heals) the member's bootstrap, then lists direct, core and the first page of group
// workstreams, recent activity, and the agents' names.
import "server-only";
import { config, listAgents } from "@/lib/config";
import { listRecentActivity } from "./activity";
import { listWorkstreams } from "./list";
import { bootstrapMember } from "./onboarding";
import type { ActivityEntry, WorkstreamSummary } from "./types";

export type SidebarData = {
  onboarding: "onboarding" | "completed";
  direct: WorkstreamSummary[];
  core: WorkstreamSummary[];
  groups: { workstreams: WorkstreamSummary[]; hasMore: boolean };
  activity: ActivityEntry[];
  agents: Array<{ id: string; name: string; description: string }>;
  pageSize: number;
  titleMaxChars: number;
  /** Owners and admins get a link to the admin console. */
  canAdminister: boolean;
};

export async function loadSidebar({
  role,
  ...member
}: {
  userId: string;
  organizationId: string;
  role: "owner" | "admin" | "member";
}): Promise<SidebarData> {
  const onboarding = await bootstrapMember(member);
  const [direct, core, groups, activity] = await Promise.all([
    listWorkstreams({ ...member, mode: "direct" }),
    listWorkstreams({ ...member, mode: "group", core: true }),
    listWorkstreams({ ...member, mode: "group", core: false }),
    listRecentActivity(member),
  ]);
  return {
    onboarding,
    direct: direct.workstreams,
    core: core.workstreams,
    groups: { workstreams: groups.workstreams, hasMore: groups.hasMore },
    activity,
    agents: listAgents().map(({ id, name, description }) => ({ id, name, description })),
    pageSize: config.workstreams.groupPageSize,
    titleMaxChars: config.workstreams.titleMaxChars,
    canAdminister: role === "owner" || role === "admin",
  };
}
