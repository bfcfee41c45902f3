// POST: unarchive a group workstream of the organization (owners and admins).
import { organizationScope, requireAdmin } from "@/lib/admin/guard";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { unarchiveWorkstream } from "@/lib/workstreams/mutate";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params }) => {
    const viewer = await requireAdmin(request);
    return json(
      await unarchiveWorkstream({
        scope: organizationScope(viewer),
        workstreamId: params.workstreamId,
      }),
    );
  },
});
