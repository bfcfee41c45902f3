// Input of /api/workstreams/[workstreamId]: the workstream's id, and what PATCH changes: a new
// title, or its security mode and allowlist (one or the other).
import { z } from "zod";
import { workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";

// The documented limit (config.workstreams.titleMaxChars) is checked after normalizing.
const PatchBody = z
  .strictObject({
    title: storableString().max(4_000).optional(),
    securityMode: z.enum(["ask", "allowlist", "auto"]).optional(),
    allowlist: z.array(storableString().min(1).max(100)).max(50).optional(),
  })
  // One change per request, so a refused part never leaves the other half written.
  .refine(
    (body) =>
      (body.title !== undefined) !==
      (body.securityMode !== undefined || body.allowlist !== undefined),
    { message: "Give either a title, or a security mode and allowlist." },
  );

export const schemas = {
  GET: workstreamPath,
  PATCH: {
    params: workstreamPath.params,
    body: PatchBody,
    codes: {
      ...workstreamPath.codes,
      title: "bad_request:title",
      securityMode: "bad_request:security_mode",
      allowlist: "bad_request:tool",
    },
  },
  DELETE: workstreamPath,
} as const satisfies RouteSchemas;
