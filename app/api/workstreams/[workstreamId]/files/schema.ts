// Input of /api/workstreams/[workstreamId]/files: the workstream's id; the body is a multipart
// form with one file, streamed by the handler.
import { workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  POST: { ...workstreamPath, multipart: true },
} as const satisfies RouteSchemas;
