// Input of /api/admin/models/check: none; the check reads the server's model configuration.
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = { POST: {} } as const satisfies RouteSchemas;
