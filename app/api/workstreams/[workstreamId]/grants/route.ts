// GET: the approvals the owner remembered in this workstream ("always allow … for N days") that
// have not expired: tool, the calls it covers (its approval key) and until when.
import { listGrants } from "@/lib/approvals/store";
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    const workstream = await getOwnedWorkstream({ viewer, workstreamId: params.workstreamId });
    return json({ grants: await listGrants(workstream.id) });
  },
});
