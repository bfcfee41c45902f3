// Input of /api/admin/jobs/[jobId]: the failed job's id (its record in the Background jobs tab).
import { z } from "zod";
import { pathId } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const jobPath = { params: z.object({ jobId: pathId() }) } as const;

export const schemas = { DELETE: jobPath } as const satisfies RouteSchemas;
