// PATCH `{ text?, importance? }`: edit an organization memory. DELETE: remove it. Owners and
// admins; a member's own memory is not found here, whoever asks.
import { requireAdmin } from "@/lib/admin/guard";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { deleteMemory, updateMemory } from "@/lib/memory/store";
import { organizationMemoryView } from "@/lib/memory/views";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  PATCH: async ({ request, params, body }) => {
    const viewer = await requireAdmin(request);
    const memory = await updateMemory({
      owner: { organizationId: viewer.organizationId, userId: null },
      id: params.memoryId,
      ...body,
    });
    return json({ memory: organizationMemoryView(memory) });
  },
  DELETE: async ({ request, params }) => {
    const viewer = await requireAdmin(request);
    await deleteMemory({
      owner: { organizationId: viewer.organizationId, userId: null },
      id: params.memoryId,
    });
    return json({ deleted: true });
  },
});
