// GET /api/me: the signed-in user, the active organization, the role, and all memberships.
import { listMemberships } from "@/lib/auth/organizations";
import { requireViewer } from "@/lib/auth/viewer";
import { json, route } from "@/lib/http/respond";

export const GET = route(async (request) => {
  const viewer = await requireViewer(request);
  const organizations = await listMemberships({ userId: viewer.userId });
  return json({
    user: { id: viewer.userId, name: viewer.userName, email: viewer.email },
    organization: { id: viewer.organizationId, name: viewer.organizationName, role: viewer.role },
    organizations,
  });
});
