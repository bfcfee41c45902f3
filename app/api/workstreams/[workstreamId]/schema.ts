// Input of /api/workstreams/[workstreamId]: the workstream's id and a new title.
import { z } from "zod";
import { workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";

// The documented limit (config.workstreams.titleMaxChars) is checked after normalizing.
const RenameBody = z.strictObject({ title: storableString().max(4_000) });

export const schemas = {
  GET: workstreamPath,
  PATCH: {
    params: workstreamPath.params,
    body: RenameBody,
    codes: { ...workstreamPath.codes, title: "bad_request:title" },
  },
  DELETE: workstreamPath,
} as const satisfies RouteSchemas;
