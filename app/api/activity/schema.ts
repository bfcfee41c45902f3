// Input of /api/activity: how many entries to list.
import { z } from "zod";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  GET: {
    query: z.object({ limit: z.coerce.number().int().min(1).max(50).optional() }),
    codes: { limit: "bad_request:limit" },
  },
} as const satisfies RouteSchemas;
