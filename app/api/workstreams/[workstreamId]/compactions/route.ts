// GET: the workstream's compactions, oldest first, for its owner only: each compacted range with
// its summary, what it changed in the state, and its token counts.
import { requireViewer } from "@/lib/auth/viewer";
import { listCompactions } from "@/lib/compaction/view";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    const compactions = await listCompactions({ viewer, workstreamId: params.workstreamId });
    return json({ compactions });
  },
});
