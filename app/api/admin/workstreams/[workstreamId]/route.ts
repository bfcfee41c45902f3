// GET: one workstream's runs (turns) with their usage, for owners and admins. DELETE: delete an
// archived group workstream of the organization (direct and core ones answer 409).
import { organizationScope, requireAdmin } from "@/lib/admin/guard";
import { getWorkstreamRuns } from "@/lib/admin/workstreams";
import { param, type RouteContext } from "@/lib/http/params";
import { json, route } from "@/lib/http/respond";
import { deleteWorkstream } from "@/lib/workstreams/mutate";

export const GET = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireAdmin(request);
  const runs = await getWorkstreamRuns({
    organizationId: viewer.organizationId,
    workstreamId: await param(context, "workstreamId"),
  });
  return json({ runs });
});

export const DELETE = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireAdmin(request);
  const workstreamId = await param(context, "workstreamId");
  return json(await deleteWorkstream({ scope: organizationScope(viewer), workstreamId }));
});
