// PATCH `{ role }`: change a member's role. DELETE: remove a member; their workstreams stay
// with the organization. Owners and admins; only owners touch owners.
import { requireAdmin } from "@/lib/admin/guard";
import { changeMemberRole, removeMember } from "@/lib/auth/members";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  PATCH: async ({ request, params, body }) => {
    const actor = await requireAdmin(request);
    return json(await changeMemberRole({ actor, memberId: params.memberId, role: body.role }));
  },
  DELETE: async ({ request, params }) => {
    const actor = await requireAdmin(request);
    return json(await removeMember({ actor, memberId: params.memberId }));
  },
});
