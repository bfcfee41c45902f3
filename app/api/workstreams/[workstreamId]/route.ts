// GET: the workstream as its owner sees it: title, mode, agent, busy state (isRunning,
// isCompacting, never the run id), the open turn and the newest event offset to follow from.
// PATCH `{ title?, securityMode?, allowlist? }`: rename (standard group workstreams only), and
// set which tool calls run without asking (any workstream). DELETE: delete an archived group
// workstream with its messages, turns and events.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { describeWorkstream } from "@/lib/turns/describe";
import { deleteWorkstream, renameWorkstream } from "@/lib/workstreams/mutate";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { setWorkstreamSecurity } from "@/lib/workstreams/security";
import { requireSummaryRow, toSummary } from "@/lib/workstreams/summary";
import { ownerScope } from "@/lib/workstreams/types";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    const workstream = await getOwnedWorkstream({ viewer, workstreamId: params.workstreamId });
    return json({
      ...(await describeWorkstream(workstream)),
      core: workstream.core,
      coreType: workstream.coreType,
      security: { mode: workstream.securityMode, allowlist: workstream.toolAllowlist },
    });
  },
  PATCH: async ({ request, params, body }) => {
    const viewer = await requireViewer(request);
    const { workstreamId } = params;
    const security =
      body.securityMode !== undefined || body.allowlist !== undefined
        ? await setWorkstreamSecurity({
            owner: viewer,
            workstreamId,
            mode: body.securityMode,
            allowlist: body.allowlist,
          })
        : undefined;
    const summary =
      body.title !== undefined
        ? await renameWorkstream({ scope: ownerScope(viewer), workstreamId, title: body.title })
        : toSummary(await requireSummaryRow({ scope: ownerScope(viewer), workstreamId }));
    return json(security ? { ...summary, security } : summary);
  },
  DELETE: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    return json(
      await deleteWorkstream({ scope: ownerScope(viewer), workstreamId: params.workstreamId }),
    );
  },
});
