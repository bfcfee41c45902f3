// POST: stop the workstream's running or suspended turn, wherever it runs. Answers once the turn
// has ended, with its final state; `{ turnId: null }` when nothing was running.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { stopActiveTurn } from "@/lib/turns/stop";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    const workstream = await getOwnedWorkstream({ viewer, workstreamId: params.workstreamId });
    return json(await stopActiveTurn({ workstreamId: workstream.id }));
  },
});
