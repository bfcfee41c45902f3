// Input of /api/admin/members/[memberId]: the member's id and the new role.
import { z } from "zod";
import { pathId } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

const params = z.object({ memberId: pathId() });

export const schemas = {
  PATCH: {
    params,
    body: z.strictObject({ role: z.enum(["owner", "admin", "member"]) }),
    codes: { role: "bad_request:role" },
  },
  DELETE: { params },
} as const satisfies RouteSchemas;
