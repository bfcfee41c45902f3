// DELETE: cancel a pending invitation of the organization (idempotent).
import { requireAdmin } from "@/lib/admin/guard";
import { cancelInvitation } from "@/lib/auth/invitations";
import { param, type RouteContext } from "@/lib/http/params";
import { json, route } from "@/lib/http/respond";

export const DELETE = route(async (request, context: RouteContext<"invitationId">) => {
  const actor = await requireAdmin(request);
  return json(
    await cancelInvitation({ actor, invitationId: await param(context, "invitationId") }),
  );
});
