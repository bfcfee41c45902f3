// GET: follow or resume the workstream's turn events after an offset (`?after=N` or
// `Last-Event-ID`), in the same SSE encoding as the POST that started the turn.
import { requireViewer } from "@/lib/auth/viewer";
import { routeHandlers } from "@/lib/http/route-handlers";
import { followResponse, resumeOffset } from "@/lib/turns/follow-turn";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    const workstream = await getOwnedWorkstream({ viewer, workstreamId: params.workstreamId });
    const after = await resumeOffset({ workstreamId: workstream.id, request });
    return followResponse({ workstreamId: workstream.id, after, request });
  },
});
