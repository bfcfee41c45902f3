// GET: pending invitations. POST `{ email, role }`: invite someone; answers with the
// invitation and its link to copy (there is no mail server). Inviting a pending address again
// renews that invitation (200) instead of adding one (201).
import { z } from "zod";
import { requireAdmin } from "@/lib/admin/guard";
import { invitationUrl } from "@/lib/auth/invitation-url";
import { createInvitation, listInvitations } from "@/lib/auth/invitations";
import { parseInput } from "@/lib/http/parse";
import { json, readJson, route } from "@/lib/http/respond";

const InviteBody = z.strictObject({
  email: z.email().max(254),
  role: z.enum(["owner", "admin", "member"]).default("member"),
});

export const GET = route(async (request) => {
  const viewer = await requireAdmin(request);
  const invitations = await listInvitations({ organizationId: viewer.organizationId });
  return json({
    invitations: invitations.map((item) => ({
      ...item,
      url: invitationUrl({ origin: new URL(request.url).origin, invitationId: item.id }),
    })),
  });
});

export const POST = route(async (request) => {
  const actor = await requireAdmin(request);
  const body = parseInput(InviteBody, await readJson(request), {
    email: "bad_request:email",
    role: "bad_request:role",
  });
  const { invitation, created } = await createInvitation({ actor, ...body });
  return json(
    {
      invitation,
      url: invitationUrl({ origin: new URL(request.url).origin, invitationId: invitation.id }),
      created,
    },
    { status: created ? 201 : 200 },
  );
});
