// GET: every workstream of the organization with owner, status, usage and running state, plus
// the organization's headline numbers, for owners and admins (metadata only, never message
// content).
import { requireAdmin } from "@/lib/admin/guard";
import { organizationOverview } from "@/lib/admin/overview";
import { listOrganizationWorkstreams } from "@/lib/admin/workstreams";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, query }) => {
    const viewer = await requireAdmin(request);
    const [list, overview] = await Promise.all([
      listOrganizationWorkstreams({ organizationId: viewer.organizationId, ...query }),
      organizationOverview({ organizationId: viewer.organizationId }),
    ]);
    return json({ ...list, overview });
  },
});
