// Input of /api/onboarding: none.
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = { GET: {}, POST: {} } as const satisfies RouteSchemas;
