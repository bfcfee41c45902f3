// POST: stop the workstream's running or suspended turn, wherever it runs. Answers once the turn
// has ended, with its final state; `{ turnId: null }` when nothing was running.
import { requireViewer } from "@/lib/auth/viewer";
import { param, type RouteContext } from "@/lib/http/params";
import { json, route } from "@/lib/http/respond";
import { stopActiveTurn } from "@/lib/turns/stop";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";

export const POST = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireViewer(request);
  const workstream = await getOwnedWorkstream({
    viewer,
    workstreamId: await param(context, "workstreamId"),
  });
  return json(await stopActiveTurn({ workstreamId: workstream.id }));
});
