// Input of /api/live: which topic to follow.
import { z } from "zod";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  GET: {
    query: z.object({ scope: z.enum(["user", "organization"]).default("user") }),
    codes: { scope: "bad_request:scope" },
  },
} as const satisfies RouteSchemas;
