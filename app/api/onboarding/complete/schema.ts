// Input of /api/onboarding/complete: none.
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = { POST: {} } as const satisfies RouteSchemas;
