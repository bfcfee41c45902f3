// Input of /api/workstreams/[workstreamId]/archive: the workstream's id.
import { workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = { POST: workstreamPath } as const satisfies RouteSchemas;
