// GET: the turn inspector for an admin of the workstream's organization: the same record as the
// owner's, metadata only (no message, tool argument or result, nor a reason a person typed).
import { requireAdmin } from "@/lib/admin/guard";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { inspectTurn } from "@/lib/inspector/turn";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params }) => {
    const viewer = await requireAdmin(request);
    return json(
      await inspectTurn({
        viewer: { kind: "admin", organizationId: viewer.organizationId },
        workstreamId: params.workstreamId,
        turnId: params.turnId,
      }),
    );
  },
});
