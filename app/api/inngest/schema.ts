// Inngest's endpoint reads Inngest's own requests (signed; the SDK validates them), so this app
// parses nothing of them: the entries only say which methods the route handles.
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  GET: {},
  PUT: {},
  POST: {},
} as const satisfies RouteSchemas;
