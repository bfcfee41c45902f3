// GET: the workstream as its owner sees it: title, mode, agent, busy state (isRunning,
// isCompacting, never the run id), the open turn and the newest event offset to follow from.
// PATCH `{ title }`: rename (standard group workstreams only). DELETE: delete an archived group
// workstream with its messages, turns and events.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { describeWorkstream } from "@/lib/turns/describe";
import { deleteWorkstream, renameWorkstream } from "@/lib/workstreams/mutate";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
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
    });
  },
  PATCH: async ({ request, params, body }) => {
    const viewer = await requireViewer(request);
    return json(
      await renameWorkstream({
        scope: ownerScope(viewer),
        workstreamId: params.workstreamId,
        title: body.title,
      }),
    );
  },
  DELETE: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    return json(
      await deleteWorkstream({ scope: ownerScope(viewer), workstreamId: params.workstreamId }),
    );
  },
});
