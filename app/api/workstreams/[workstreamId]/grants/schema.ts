// Input of /api/workstreams/[workstreamId]/grants: the workstream's id.
import { workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = { GET: workstreamPath } as const satisfies RouteSchemas;
