// PATCH `{ delta, version? }`: the owner edits their workstream's state (add, update, remove
// items). A list pushed past its limit answers 422 `limit:state` naming it, and nothing changes;
// a stale `version` answers 409 `conflict:state_version`.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { applyStateDelta } from "@/lib/state/store";
import { parseStateDelta, schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  PATCH: async ({ request, params, body }) => {
    const viewer = await requireViewer(request);
    const delta = parseStateDelta(body.delta);
    const { version, state, lastEvictions } = await applyStateDelta({
      workstreamId: params.workstreamId,
      organizationId: viewer.organizationId,
      ownerId: viewer.userId,
      delta,
      mode: "refuse",
      expectedVersion: body.version,
    });
    return json({ version, state, lastEvictions });
  },
});
