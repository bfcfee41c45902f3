// GET: follow or resume the workstream's turn events after an offset (`?after=N` or
// `Last-Event-ID`), in the same SSE encoding as the POST that started the turn.
import { requireViewer } from "@/lib/auth/viewer";
import { param, type RouteContext } from "@/lib/http/params";
import { route } from "@/lib/http/respond";
import { followResponse, resumeOffset } from "@/lib/turns/follow-turn";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";

export const GET = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireViewer(request);
  const workstream = await getOwnedWorkstream({
    viewer,
    workstreamId: await param(context, "workstreamId"),
  });
  const after = await resumeOffset({ workstreamId: workstream.id, request });
  return followResponse({ workstreamId: workstream.id, after, request });
});
