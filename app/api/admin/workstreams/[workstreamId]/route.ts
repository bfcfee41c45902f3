// GET: one workstream's runs (turns) with their usage, for owners and admins. DELETE: delete an
// archived group workstream of the organization (direct and core ones answer 409).
import { organizationScope, requireAdmin } from "@/lib/admin/guard";
import { getWorkstreamRuns } from "@/lib/admin/workstreams";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { deleteWorkstream } from "@/lib/workstreams/mutate";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params }) => {
    const viewer = await requireAdmin(request);
    const runs = await getWorkstreamRuns({
      organizationId: viewer.organizationId,
      workstreamId: params.workstreamId,
    });
    return json({ runs });
  },
  DELETE: async ({ request, params }) => {
    const viewer = await requireAdmin(request);
    return json(
      await deleteWorkstream({
        scope: organizationScope(viewer),
        workstreamId: params.workstreamId,
      }),
    );
  },
});
