// What the API's fallback receives: the segments of a path under /api/ that no route names. It
// reads nothing else, whatever the method.
import { z } from "zod";
import type { RouteSchemas } from "@/lib/http/route-handlers";

const params = z.object({ rest: z.array(z.string()).optional() });

export const schemas = {
  GET: { params },
  POST: { params },
  PUT: { params },
  PATCH: { params },
  DELETE: { params },
} as const satisfies RouteSchemas;
