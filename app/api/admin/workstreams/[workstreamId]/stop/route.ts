// POST: stop the running turn of any workstream in the organization (owners and admins).
// Answers once the turn has ended, like the owner's stop: `{ turnId, state }`, or nulls when
// nothing was running.
import { requireAdmin } from "@/lib/admin/guard";
import { stopWorkstreamAsAdmin } from "@/lib/admin/stop";
import { param, type RouteContext } from "@/lib/http/params";
import { json, route } from "@/lib/http/respond";

export const POST = route(async (request, context: RouteContext<"workstreamId">) => {
  const viewer = await requireAdmin(request);
  return json(
    await stopWorkstreamAsAdmin({
      organizationId: viewer.organizationId,
      workstreamId: await param(context, "workstreamId"),
    }),
  );
});
