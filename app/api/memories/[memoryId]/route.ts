// PATCH `{ text?, importance? }`: edit one of the viewer's own memories. DELETE: forget it.
// Anyone else's memory, or an organization memory, is not found here.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { deleteMemory, updateMemory } from "@/lib/memory/store";
import { ownMemoryView } from "@/lib/memory/views";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  PATCH: async ({ request, params, body }) => {
    const viewer = await requireViewer(request);
    const memory = await updateMemory({
      owner: { organizationId: viewer.organizationId, userId: viewer.userId },
      id: params.memoryId,
      ...body,
    });
    return json({ memory: ownMemoryView(memory) });
  },
  DELETE: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    await deleteMemory({
      owner: { organizationId: viewer.organizationId, userId: viewer.userId },
      id: params.memoryId,
    });
    return json({ deleted: true });
  },
});
