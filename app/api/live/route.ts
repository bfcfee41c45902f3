// GET: the viewer's live channel (Server-Sent Events): changes to their workstreams (created,
// renamed, archived, title, running, compacting, deleted), recent activity and onboarding.
// `?scope=organization` follows every workstream of the organization instead: owners and
// admins only (summaries are metadata, never message content).
import { requireRole, requireViewer } from "@/lib/auth/viewer";
import { routeHandlers } from "@/lib/http/route-handlers";
import { liveResponse } from "@/lib/stream/sse";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, query }) => {
    const viewer = await requireViewer(request);
    if (query.scope === "organization") requireRole(viewer, ["owner", "admin"]);
    return liveResponse({
      topic:
        query.scope === "organization"
          ? { kind: "organization", organizationId: viewer.organizationId }
          : { kind: "user", organizationId: viewer.organizationId, userId: viewer.userId },
      signal: request.signal,
    });
  },
});
