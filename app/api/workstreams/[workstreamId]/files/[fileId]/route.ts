// GET: redirects (302) to a short-lived signed URL of the file, for an <img> or a download
// (`?download=1`); the URL itself is never stored. DELETE: removes an upload that no message
// carries yet (a chip removed before sending).
import { requireViewer } from "@/lib/auth/viewer";
import { fileViewUrl, removeUpload } from "@/lib/files/service";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request, params, query }) => {
    const viewer = await requireViewer(request);
    const workstream = await getOwnedWorkstream({ viewer, workstreamId: params.workstreamId });
    const url = await fileViewUrl({
      workstream,
      fileId: params.fileId,
      download: query.download === "1",
    });
    return new Response(null, {
      status: 302,
      headers: {
        location: new URL(url, request.url).toString(),
        "cache-control": "private, no-store",
      },
    });
  },
  DELETE: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    const workstream = await getOwnedWorkstream({ viewer, workstreamId: params.workstreamId });
    return json(await removeUpload({ workstream, fileId: params.fileId }));
  },
});
