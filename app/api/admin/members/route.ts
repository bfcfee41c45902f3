// GET: the organization's members with roles and workstream counts (owners and admins).
import { requireAdmin } from "@/lib/admin/guard";
import { listMembersWithUsage } from "@/lib/admin/members";
import { json, route } from "@/lib/http/respond";

export const GET = route(async (request) => {
  const viewer = await requireAdmin(request);
  return json({ members: await listMembersWithUsage({ organizationId: viewer.organizationId }) });
});
