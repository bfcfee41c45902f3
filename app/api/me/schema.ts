// Input of /api/me: none.
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = { GET: {} } as const satisfies RouteSchemas;
