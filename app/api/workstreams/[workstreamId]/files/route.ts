// POST: uploads one file (multipart/form-data, field "file") into the workstream; answers 201
// with the file's id, name, type (decided from its bytes) and size, to attach to a message.
import { requireViewer } from "@/lib/auth/viewer";
import { uploadFile } from "@/lib/files/service";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    const file = await uploadFile({ viewer, workstreamId: params.workstreamId, request });
    return json(file, { status: 201 });
  },
});
