// GET: the viewer's recent activity: one entry per workstream touched, newest first.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { listRecentActivity } from "@/lib/workstreams/activity";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, query }) => {
    const viewer = await requireViewer(request);
    return json({
      activity: await listRecentActivity({
        userId: viewer.userId,
        organizationId: viewer.organizationId,
        limit: query.limit,
      }),
    });
  },
});
