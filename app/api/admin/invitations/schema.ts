// Input of /api/admin/invitations: the invitation to create.
import { z } from "zod";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  GET: {},
  POST: {
    body: z.strictObject({
      email: z.email().max(254),
      role: z.enum(["owner", "admin", "member"]).default("member"),
    }),
    codes: { email: "bad_request:email", role: "bad_request:role" },
  },
} as const satisfies RouteSchemas;
