// DELETE: forgets a remembered approval: the calls it covered ask again.
import { revokeGrant } from "@/lib/approvals/store";
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  DELETE: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    const workstream = await getOwnedWorkstream({ viewer, workstreamId: params.workstreamId });
    return json(await revokeGrant({ workstreamId: workstream.id, grantId: params.grantId }));
  },
});
