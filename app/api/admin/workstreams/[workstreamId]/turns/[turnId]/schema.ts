// Input of /api/admin/workstreams/[workstreamId]/turns/[turnId]: the ids in the path.
import { z } from "zod";
import { pathId, workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  GET: {
    params: z.object({ workstreamId: pathId(), turnId: pathId() }),
    codes: workstreamPath.codes,
  },
} as const satisfies RouteSchemas;
