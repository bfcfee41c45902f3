// GET: the organization's memories (never a member's own), newest first, with search. POST
// `{ text, importance? }`: add one; every member's agents may use it. Owners and admins.
import { requireAdmin } from "@/lib/admin/guard";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { createMemory, listMemories } from "@/lib/memory/store";
import { organizationMemoryView, searchText } from "@/lib/memory/views";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, query }) => {
    const viewer = await requireAdmin(request);
    const { memories, hasMore } = await listMemories({
      owner: { organizationId: viewer.organizationId, userId: null },
      search: searchText(query.q),
      before: query.before,
      limit: query.limit,
    });
    return json({ memories: memories.map(organizationMemoryView), hasMore });
  },
  POST: async ({ request, body }) => {
    const viewer = await requireAdmin(request);
    const { memory, merged } = await createMemory({
      organizationId: viewer.organizationId,
      ownerId: null,
      text: body.text,
      importance: body.importance,
    });
    // The organization had the same fact already (normalized text): no second copy is added.
    return json({ memory: organizationMemoryView(memory), merged }, { status: merged ? 200 : 201 });
  },
});
