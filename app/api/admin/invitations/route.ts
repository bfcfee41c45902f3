// GET: pending invitations. POST `{ email, role }`: invite someone; answers with the
// invitation and its link to copy (there is no mail server). Inviting a pending address again
// renews that invitation (200) instead of adding one (201).
import { requireAdmin } from "@/lib/admin/guard";
import { invitationUrl } from "@/lib/auth/invitation-url";
import { createInvitation, listInvitations } from "@/lib/auth/invitations";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request }) => {
    const viewer = await requireAdmin(request);
    const invitations = await listInvitations({ organizationId: viewer.organizationId });
    return json({
      invitations: invitations.map((item) => ({
        ...item,
        url: invitationUrl({ origin: new URL(request.url).origin, invitationId: item.id }),
      })),
    });
  },
  POST: async ({ request, body }) => {
    const actor = await requireAdmin(request);
    const { invitation, created } = await createInvitation({ actor, ...body });
    return json(
      {
        invitation,
        url: invitationUrl({ origin: new URL(request.url).origin, invitationId: invitation.id }),
        created,
      },
      { status: created ? 201 : 200 },
    );
  },
});
