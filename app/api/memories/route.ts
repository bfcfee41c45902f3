// GET: the viewer's own memories (scope=mine, the default: learned from their conversations or
// remembered on request), or the organization's (scope=organization), newest first, with search.
// The viewer's own list also says whether learning from their turns is failing (learningFailure).
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { learningFailure } from "@/lib/memory/learning-status";
import { listMemories } from "@/lib/memory/store";
import { organizationMemoryView, ownMemoryView, searchText } from "@/lib/memory/views";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, query }) => {
    const viewer = await requireViewer(request);
    const organization = query.scope === "organization";
    const [{ memories, hasMore }, failing] = await Promise.all([
      listMemories({
        owner: {
          organizationId: viewer.organizationId,
          userId: organization ? null : viewer.userId,
        },
        search: searchText(query.q),
        before: query.before,
        limit: query.limit,
      }),
      organization
        ? null
        : learningFailure({ organizationId: viewer.organizationId, userId: viewer.userId }),
    ]);
    return json({
      memories: memories.map(organization ? organizationMemoryView : ownMemoryView),
      hasMore,
      ...(organization ? {} : { learningFailure: failing }),
    });
  },
});
