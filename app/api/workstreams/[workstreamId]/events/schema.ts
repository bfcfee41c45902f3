// Input of /api/workstreams/[workstreamId]/events: the workstream's id and the offset to follow
// from (`?after=N`; the `Last-Event-ID` header is read where the offset is resolved).
import { z } from "zod";
import { workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  GET: {
    params: workstreamPath.params,
    query: z.object({
      after: z
        .string()
        .regex(/^\d{1,15}$/)
        .optional(),
    }),
    codes: { ...workstreamPath.codes, after: "bad_request:offset" },
  },
} as const satisfies RouteSchemas;
