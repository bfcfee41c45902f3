// POST: run a failed background job of the organization again, once. Owners and admins.
import { retryFailedJob } from "@/lib/admin/failed-jobs";
import { requireAdmin } from "@/lib/admin/guard";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params }) => {
    const viewer = await requireAdmin(request);
    await retryFailedJob({ organizationId: viewer.organizationId, id: params.jobId });
    return json({ retried: true });
  },
});
