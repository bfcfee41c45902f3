// POST: the owner answers one approval of a suspended turn, `{ approved, reason?, grantDays? }`
// (grantDays: approve and remember it for calls like this one, a grant). The answer
// is compare-and-set (answered once, whichever tab or server asks), audited, and once the turn's
// last approval is answered the same turn goes on from its kept answer. Answers with the state
// of the approval and whether the turn went on (follow it at …/events) or which one is next.
import { answerApproval } from "@/lib/approvals/answer";
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params, body }) => {
    const viewer = await requireViewer(request);
    const workstream = await getOwnedWorkstream({ viewer, workstreamId: params.workstreamId });
    const answer = await answerApproval({
      viewer,
      workstreamId: workstream.id,
      turnId: params.turnId,
      approvalId: params.approvalId,
      approved: body.approved,
      reason: body.reason || null,
      grantDays: body.grantDays ?? null,
    });
    return json(answer);
  },
});
