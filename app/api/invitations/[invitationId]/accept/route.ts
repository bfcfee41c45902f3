// POST: accept an invitation as the signed-in user, who must be the invited address (anyone
// else gets 404). Joins the organization; the client then switches to it.
import { acceptInvitation } from "@/lib/auth/invitations";
import { requireSessionUser } from "@/lib/auth/session-user";
import { param, type RouteContext } from "@/lib/http/params";
import { json, route } from "@/lib/http/respond";

export const POST = route(async (request, context: RouteContext<"invitationId">) => {
  const user = await requireSessionUser(request);
  return json(
    await acceptInvitation({ invitationId: await param(context, "invitationId"), ...user }),
  );
});
