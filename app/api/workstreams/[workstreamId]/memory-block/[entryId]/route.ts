// DELETE: removes one note from the viewer's workstream's memory block. Another member's
// workstream, or a note that is not this workstream's, is not found.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { deleteMemoryEntry } from "@/lib/memory/block";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  DELETE: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    return json(
      await deleteMemoryEntry({
        owner: { userId: viewer.userId, organizationId: viewer.organizationId },
        workstreamId: params.workstreamId,
        entryId: params.entryId,
      }),
    );
  },
});
