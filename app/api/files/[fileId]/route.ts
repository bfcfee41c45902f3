// GET: the bytes of a file behind a local signed URL (lib/files/signing.ts). No session is read:
// the signature is the authorization, and it expires. 403 when it is altered or expired.
import { serveSignedFile } from "@/lib/files/service";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ params, query }) => {
    const served = await serveSignedFile(params.fileId, {
      exp: query.exp,
      dl: query.dl === "1",
      sig: query.sig,
    });
    return new Response(served.body, { headers: served.headers });
  },
});
