// POST: archive the viewer's group workstream (idempotent). Direct and core ones answer 409.
import { requireViewer } from "@/lib/auth/viewer";
import { param, type RouteContext } from "@/lib/http/params";
import { json, route } from "@/lib/http/respond";
import { archiveWorkstream } from "@/lib/workstreams/mutate";
import { ownerScope } from "@/lib/workstreams/types";

export const POST = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireViewer(request);
  const workstreamId = await param(context, "workstreamId");
  return json(await archiveWorkstream({ scope: ownerScope(viewer), workstreamId }));
});
