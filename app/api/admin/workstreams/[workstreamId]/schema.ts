// Input of /api/admin/workstreams/[workstreamId]: the workstream's id.
import { workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  GET: workstreamPath,
  DELETE: workstreamPath,
} as const satisfies RouteSchemas;
