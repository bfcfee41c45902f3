// Input of /api/admin/jobs/[jobId]/retry: the failed job's id; no body.
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { jobPath } from "../schema";

export const schemas = { POST: jobPath } as const satisfies RouteSchemas;
