// Input of /api/workstreams/[workstreamId]/grants/[grantId]: the workstream's and the grant's ids.
import { z } from "zod";
import { pathId, workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  DELETE: {
    params: z.object({ workstreamId: pathId(), grantId: pathId() }),
    codes: workstreamPath.codes,
  },
} as const satisfies RouteSchemas;
