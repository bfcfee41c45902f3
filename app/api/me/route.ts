// GET /api/me: the signed-in user, the active organization, the role, and all memberships.
import { listMemberships } from "@/lib/auth/organizations";
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request }) => {
    const viewer = await requireViewer(request);
    const organizations = await listMemberships({ userId: viewer.userId });
    return json({
      user: { id: viewer.userId, name: viewer.userName, email: viewer.email },
      organization: {
        id: viewer.organizationId,
        name: viewer.organizationName,
        role: viewer.role,
      },
      organizations,
    });
  },
});
