// GET: the viewer's workstreams of one mode (`mode` required, `core`, `take`/`page` for standard
// group workstreams, `includeArchived`).
// POST: create a direct, group or core workstream. Direct and core creates are idempotent and
// answer 201 either way (with `created` telling whether this call made it), so clients can
// "open" a direct workstream without checking first.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { createWorkstream } from "@/lib/workstreams/create";
import { listWorkstreams } from "@/lib/workstreams/list";
import { schemas, toCreateInput } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, query }) => {
    const viewer = await requireViewer(request);
    return json(
      await listWorkstreams({
        userId: viewer.userId,
        organizationId: viewer.organizationId,
        ...query,
      }),
    );
  },
  POST: async ({ request, body }) => {
    const viewer = await requireViewer(request);
    const { workstream, created } = await createWorkstream({
      userId: viewer.userId,
      organizationId: viewer.organizationId,
      ...toCreateInput(body),
    });
    return json({ ...workstream, created }, { status: 201 });
  },
});
