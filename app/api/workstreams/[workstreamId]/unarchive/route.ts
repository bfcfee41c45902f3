// POST: bring the viewer's archived group workstream back (idempotent).
import { requireViewer } from "@/lib/auth/viewer";
import { param, type RouteContext } from "@/lib/http/params";
import { json, route } from "@/lib/http/respond";
import { unarchiveWorkstream } from "@/lib/workstreams/mutate";
import { ownerScope } from "@/lib/workstreams/types";

export const POST = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireViewer(request);
  const workstreamId = await param(context, "workstreamId");
  return json(await unarchiveWorkstream({ scope: ownerScope(viewer), workstreamId }));
});
