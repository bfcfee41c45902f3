// GET: every workstream of the organization with owner, status, usage and running state, plus
// the organization's headline numbers, for owners and admins (metadata only, never message
// content).
import { requireAdmin } from "@/lib/admin/guard";
import { organizationOverview } from "@/lib/admin/overview";
import { listOrganizationWorkstreams } from "@/lib/admin/workstreams";
import { parseInput, queryOf } from "@/lib/http/parse";
import { json, route } from "@/lib/http/respond";
import { ADMIN_LIST_CODES, AdminListQuery } from "./schema";

export const GET = route(async (request) => {
  const viewer = await requireAdmin(request);
  const query = parseInput(AdminListQuery, queryOf(request), ADMIN_LIST_CODES);
  const [list, overview] = await Promise.all([
    listOrganizationWorkstreams({ organizationId: viewer.organizationId, ...query }),
    organizationOverview({ organizationId: viewer.organizationId }),
  ]);
  return json({ ...list, overview });
});
