// Schemas of path parameters: an id, and the workstream id most routes are under.
import { z } from "zod";
import type { FieldCodes } from "./parse";
import { storableString } from "./text";

/** An id taken from the path: storable text of a sane length (unknown ids are the lib's 404). */
export function pathId() {
  return storableString().min(1).max(300);
}

/** The path of every `…/workstreams/[workstreamId]/…` route, to spread into its method schemas. */
export const workstreamPath = {
  params: z.object({ workstreamId: pathId() }),
  codes: { workstreamId: "bad_request:workstream_id" },
} as const satisfies { params: z.ZodType; codes: FieldCodes };
