// GET: the viewer's own memories (scope=mine, the default: learned from their conversations or
// remembered on request), or the organization's (scope=organization), newest first, with search.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { listMemories } from "@/lib/memory/store";
import { organizationMemoryView, ownMemoryView, searchText } from "@/lib/memory/views";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, query }) => {
    const viewer = await requireViewer(request);
    const organization = query.scope === "organization";
    const { memories, hasMore } = await listMemories({
      owner: { organizationId: viewer.organizationId, userId: organization ? null : viewer.userId },
      search: searchText(query.q),
      before: query.before,
      limit: query.limit,
    });
    return json({
      memories: memories.map(organization ? organizationMemoryView : ownMemoryView),
      hasMore,
    });
  },
});
