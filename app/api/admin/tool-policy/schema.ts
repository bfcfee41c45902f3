// Input of /api/admin/tool-policy: the organization's rules, by tool.
import { z } from "zod";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";

const PolicyBody = z.strictObject({
  rules: z
    .record(storableString().min(1).max(100), z.enum(["allowed", "requires_approval", "forbidden"]))
    .refine((rules) => Object.keys(rules).length <= 200, "Too many tools."),
});

export const schemas = {
  GET: {},
  PUT: { body: PolicyBody, codes: { rules: "bad_request:validation" } },
} as const satisfies RouteSchemas;
