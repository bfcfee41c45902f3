// Input of /api/workstreams/[workstreamId]/compactions/[compactionId]/messages: the ids, and a
// page's size and cursor (a message of the compacted range).
import { z } from "zod";
import { config } from "@/lib/config";
import { pathId, workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";

const PageQuery = z.object({
  take: z.coerce
    .number()
    .int()
    .min(1)
    .max(config.history.maxTake)
    .default(config.history.defaultTake),
  beforeMessageId: storableString().min(1).max(200).optional(),
});

export const schemas = {
  GET: {
    params: z.object({ workstreamId: pathId(), compactionId: pathId() }),
    query: PageQuery,
    codes: {
      ...workstreamPath.codes,
      take: "bad_request:take",
      beforeMessageId: "bad_request:range_cursor",
    },
  },
} as const satisfies RouteSchemas;
