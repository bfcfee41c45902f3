// GET: the workstream as its owner sees it: title, mode, agent, busy state (isRunning,
// isCompacting, never the run id), the open turn and the newest event offset to follow from.
import { requireViewer } from "@/lib/auth/viewer";
import { param, type RouteContext } from "@/lib/http/params";
import { json, route } from "@/lib/http/respond";
import { describeWorkstream } from "@/lib/turns/describe";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";

export const GET = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireViewer(request);
  const workstream = await getOwnedWorkstream({
    viewer,
    workstreamId: await param(context, "workstreamId"),
  });
  return json(await describeWorkstream(workstream));
});
