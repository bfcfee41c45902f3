// Input of /api/workstreams/[workstreamId]/memory-block/[entryId]: the workstream's and the
// note's ids.
import { z } from "zod";
import { pathId, workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  DELETE: {
    params: z.object({ workstreamId: pathId(), entryId: pathId() }),
    codes: workstreamPath.codes,
  },
} as const satisfies RouteSchemas;
