// GET: the audit of tool-call decisions in one workstream of the organization, for owners and
// admins: which tool, a hash of its arguments, the decision, its source, who and when. Never the
// arguments, and of a member's reason only whether they gave one.
import { requireAdmin } from "@/lib/admin/guard";
import { listDecisions } from "@/lib/approvals/store";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { requireOrganizationWorkstream } from "@/lib/workstreams/queries";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params }) => {
    const viewer = await requireAdmin(request);
    const workstream = { organizationId: viewer.organizationId, workstreamId: params.workstreamId };
    await requireOrganizationWorkstream(workstream);
    const decisions = await listDecisions(workstream);
    return json({ decisions });
  },
});
