// POST `{ confirm: true }`: share one of the viewer's own memories with the organization (every
// member's agents may then use it; admins manage it). Without the confirmation nothing changes.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { AppError } from "@/lib/kernel/errors";
import { shareMemory } from "@/lib/memory/store";
import { organizationMemoryView } from "@/lib/memory/views";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params, body }) => {
    const viewer = await requireViewer(request);
    if (body.confirm !== true) throw new AppError("bad_request:confirmation");
    const memory = await shareMemory({
      owner: { organizationId: viewer.organizationId, userId: viewer.userId },
      id: params.memoryId,
    });
    return json({ memory: organizationMemoryView(memory) });
  },
});
