// POST: accept an invitation as the signed-in user, who must be the invited address (anyone
// else gets 404). Joins the organization; the client then switches to it.
import { acceptInvitation } from "@/lib/auth/invitations";
import { requireSessionUser } from "@/lib/auth/session-user";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params }) => {
    const user = await requireSessionUser(request);
    return json(await acceptInvitation({ invitationId: params.invitationId, ...user }));
  },
});
