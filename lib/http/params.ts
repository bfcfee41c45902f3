// Route parameters as Next.js hands them to route handlers, and the schema of an id in a path.
import { z } from "zod";
import type { FieldCodes } from "./parse";
import { storableString } from "./text";

export type RouteContext<P extends string> = { params: Promise<Record<P, string | string[]>> };

export async function param<P extends string>(context: RouteContext<P>, name: P): Promise<string> {
  const value = (await context.params)[name];
  return Array.isArray(value) ? value.join("/") : value;
}

/** An id taken from the path: storable text of a sane length (unknown ids are the lib's 404). */
export function pathId() {
  return storableString().min(1).max(300);
}

/** The path of every `…/workstreams/[workstreamId]/…` route, to spread into its method schemas. */
export const workstreamPath = {
  params: z.object({ workstreamId: pathId() }),
  codes: { workstreamId: "bad_request:workstream_id" },
} as const satisfies { params: z.ZodType; codes: FieldCodes };
