// GET: follow or resume the workstream's turn events after an offset (`?after=N` or
// `Last-Event-ID`), in the same SSE encoding as the POST that started the turn.
import { requireViewer } from "@/lib/auth/viewer";
import { eventStreamResponse } from "@/lib/http/event-stream";
import { routeHandlers } from "@/lib/http/route-handlers";
import { followTurn, openFollow } from "@/lib/turns/follow-turn";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params, query }) => {
    const start = await openFollow({
      viewer: await requireViewer(request),
      workstreamId: params.workstreamId,
      after: query.after,
      lastEventId: request.headers.get("last-event-id"),
    });
    return eventStreamResponse(request, (signal) => followTurn({ ...start, signal }));
  },
});
