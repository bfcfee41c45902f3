// POST: stop the running turn of any workstream in the organization (owners and admins).
// Answers once the turn has ended, like the owner's stop: `{ turnId, state }`, or nulls when
// nothing was running.
import { requireAdmin } from "@/lib/admin/guard";
import { stopWorkstreamAsAdmin } from "@/lib/admin/stop";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params }) => {
    const viewer = await requireAdmin(request);
    return json(
      await stopWorkstreamAsAdmin({
        organizationId: viewer.organizationId,
        workstreamId: params.workstreamId,
      }),
    );
  },
});
