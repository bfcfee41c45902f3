// Input of /api/workstreams/[workstreamId]/files/[fileId]: the ids, and whether GET is for a
// download (an attachment disposition) rather than for viewing.
import { z } from "zod";
import { pathId, workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

const params = z.object({ workstreamId: pathId(), fileId: pathId() });

export const schemas = {
  GET: {
    params,
    query: z.strictObject({ download: z.enum(["0", "1"]).optional() }),
    codes: { ...workstreamPath.codes, download: "bad_request:validation" },
  },
  DELETE: { params, codes: workstreamPath.codes },
} as const satisfies RouteSchemas;
