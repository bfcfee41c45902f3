// GET: what the agent keeps for this workstream, for its owner only: the state lists, the active
// plan, the memory block with its summary, and the sections (with token counts, no content) of the
// last turn's context.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { loadContextView } from "@/lib/state/view";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    return json(await loadContextView({ viewer, workstreamId: params.workstreamId }));
  },
});
