// POST: uploads one file (multipart/form-data, field "file") into the workstream; answers 201
// with the file's id, name, type (decided from its bytes) and size, to attach to a message.
import { requireViewer } from "@/lib/auth/viewer";
import { uploadFile } from "@/lib/files/service";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { getOwnedWorkstream } from "@/lib/workstreams/queries";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    const workstream = await getOwnedWorkstream({ viewer, workstreamId: params.workstreamId });
    const file = await uploadFile({ viewer, workstream, request });
    return json(file, { status: 201 });
  },
});
