// GET: a page of a compacted range's original messages, for the workstream's owner only; paged
// like history (`take`, cursor `beforeMessageId`, which must belong to the range).
import { requireViewer } from "@/lib/auth/viewer";
import { compactedMessagesPage } from "@/lib/compaction/view";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params, query }) => {
    const viewer = await requireViewer(request);
    return json(await compactedMessagesPage({ viewer, ...params, ...query }));
  },
});
