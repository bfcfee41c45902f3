// Input of /api/admin/invitations/[invitationId]: the invitation's id.
import { z } from "zod";
import { pathId } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  DELETE: { params: z.object({ invitationId: pathId() }) },
} as const satisfies RouteSchemas;
