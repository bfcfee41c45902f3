// POST: unarchive a group workstream of the organization (owners and admins).
import { organizationScope, requireAdmin } from "@/lib/admin/guard";
import { param, type RouteContext } from "@/lib/http/params";
import { json, route } from "@/lib/http/respond";
import { unarchiveWorkstream } from "@/lib/workstreams/mutate";

export const POST = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireAdmin(request);
  const workstreamId = await param(context, "workstreamId");
  return json(await unarchiveWorkstream({ scope: organizationScope(viewer), workstreamId }));
});
