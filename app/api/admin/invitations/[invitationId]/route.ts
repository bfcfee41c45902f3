// DELETE: cancel a pending invitation of the organization (idempotent).
import { requireAdmin } from "@/lib/admin/guard";
import { cancelInvitation } from "@/lib/auth/invitations";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  DELETE: async ({ request, params }) => {
    const actor = await requireAdmin(request);
    return json(await cancelInvitation({ actor, invitationId: params.invitationId }));
  },
});
