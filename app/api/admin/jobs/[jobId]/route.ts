// DELETE: discard a failed background job of the organization (its record and the engine's
// failed run). Owners and admins.
import { discardFailedJob } from "@/lib/admin/failed-jobs";
import { requireAdmin } from "@/lib/admin/guard";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  DELETE: async ({ request, params }) => {
    const viewer = await requireAdmin(request);
    await discardFailedJob({ organizationId: viewer.organizationId, id: params.jobId });
    return json({ discarded: true });
  },
});
