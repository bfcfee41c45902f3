// GET: the organization's members with roles and workstream counts (owners and admins).
import { requireAdmin } from "@/lib/admin/guard";
import { listMembersWithUsage } from "@/lib/admin/members";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request }) => {
    const viewer = await requireAdmin(request);
    return json({
      members: await listMembersWithUsage({ organizationId: viewer.organizationId }),
    });
  },
});
