// Input of /api/skills: none (the viewer's skills and the organization's).
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = { GET: {} } as const satisfies RouteSchemas;
