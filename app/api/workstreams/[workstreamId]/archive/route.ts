// POST: archive the viewer's group workstream (idempotent). Direct and core ones answer 409.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { archiveWorkstream } from "@/lib/workstreams/mutate";
import { ownerScope } from "@/lib/workstreams/types";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    return json(
      await archiveWorkstream({ scope: ownerScope(viewer), workstreamId: params.workstreamId }),
    );
  },
});
