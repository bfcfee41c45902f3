// Input of /api/workstreams/[workstreamId]/state: PATCH `{ delta, version? }`, the member's own
// edit of the workstream state. The delta is first checked as storable JSON (NUL and lone
// surrogates are `bad_request:text`), then parsed as a WorkstreamStateDelta by parseStateDelta so
// a text over the item limit answers `bad_request:too_long` rather than a generic validation error.
import { z } from "zod";
import { workstreamPath } from "@/lib/http/params";
import { inputError } from "@/lib/http/parse";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableJson } from "@/lib/http/text";
import { AppError } from "@/lib/kernel/errors";
import {
  STATE_ITEM_MAX,
  type WorkstreamStateDelta,
  workstreamStateDeltaSchema,
} from "@/lib/state/schema";

const PatchStateBody = z.strictObject({
  delta: storableJson(),
  /** The version the member loaded; a stale one answers 409 `conflict:state_version`. */
  version: z.number().int().min(0).optional(),
});

export const schemas = {
  PATCH: { ...workstreamPath, body: PatchStateBody, maxBodyBytes: 64 * 1024 },
} as const satisfies RouteSchemas;

export function parseStateDelta(value: unknown): WorkstreamStateDelta {
  const result = workstreamStateDeltaSchema.safeParse(value);
  if (result.success) return result.data;
  const tooLong = result.error.issues.find(
    (issue) => issue.code === "too_big" && issue.origin === "string",
  );
  if (tooLong) {
    throw new AppError("bad_request:too_long", {
      details: { field: ["delta", ...tooLong.path].join("."), maximum: STATE_ITEM_MAX },
    });
  }
  const error = inputError(result.error);
  // The delta is one field of the body: name fields from the body's root, as elsewhere.
  if (error.code === "bad_request:unknown_field" && error.details) {
    const fields = (error.details.fields as string[]).map((field) => `delta.${field}`);
    throw new AppError("bad_request:unknown_field", { details: { field: fields[0], fields } });
  }
  throw error;
}
