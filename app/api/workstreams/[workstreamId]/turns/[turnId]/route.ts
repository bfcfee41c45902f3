// GET: the turn inspector for the workstream's owner: what the turn did, stage by stage, from
// its durable record, with the content of its tool calls.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { inspectTurn } from "@/lib/inspector/turn";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    return json(
      await inspectTurn({
        viewer: { kind: "owner", organizationId: viewer.organizationId, userId: viewer.userId },
        workstreamId: params.workstreamId,
        turnId: params.turnId,
      }),
    );
  },
});
