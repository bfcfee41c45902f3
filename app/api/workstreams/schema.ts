// Input of /api/workstreams: the list query and the create body.
import { z } from "zod";
import { config } from "@/lib/config";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";
import { AppError } from "@/lib/kernel/errors";
import type { CreateWorkstreamInput } from "@/lib/workstreams/create";

const flag = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");
const whole = z.coerce.number().int();

export const ListQuery = z.object({
  mode: z.enum(["direct", "group"], { error: 'mode must be "direct" or "group".' }),
  core: flag.optional(),
  take: whole.optional(),
  page: whole.optional(),
  includeArchived: flag.optional(),
});

export const LIST_CODES = {
  mode: "bad_request:mode",
  core: "bad_request:core",
  take: "bad_request:take",
  page: "bad_request:page",
  includeArchived: "bad_request:include_archived",
} as const;

export const CreateBody = z.strictObject({
  mode: z.enum(["direct", "group"], { error: 'mode must be "direct" or "group".' }),
  agentId: storableString().min(1).max(64).optional(),
  // Length is checked after normalizing, with the documented limit (bad_request:title).
  title: storableString()
    .max(config.workstreams.titleMaxChars * 4)
    .optional(),
  core: z.boolean().optional(),
  coreType: storableString().min(1).max(64).optional(),
});

export const CREATE_CODES = {
  mode: "bad_request:mode",
  agentId: "bad_request:agent",
  title: "bad_request:title",
  core: "bad_request:core",
  coreType: "bad_request:core_type",
} as const;

export const schemas = {
  GET: { query: ListQuery, codes: LIST_CODES },
  POST: { body: CreateBody, codes: CREATE_CODES },
} as const satisfies RouteSchemas;

/** The body as one of the three kinds of workstream, or a 400 naming what does not fit. */
export function toCreateInput(body: z.infer<typeof CreateBody>): CreateWorkstreamInput {
  if (body.mode === "direct") {
    if (!body.agentId) throw new AppError("bad_request:agent");
    if (body.core || body.coreType !== undefined || body.title !== undefined) {
      throw new AppError("bad_request:direct");
    }
    return { mode: "direct", agentId: body.agentId };
  }
  if (body.core) {
    if (!body.coreType) throw new AppError("bad_request:core_type");
    if (body.title !== undefined || body.agentId !== undefined) {
      throw new AppError("bad_request:core");
    }
    return { mode: "group", core: true, coreType: body.coreType };
  }
  if (body.coreType !== undefined) {
    throw new AppError("bad_request:core");
  }
  return { mode: "group", title: body.title, agentId: body.agentId };
}
