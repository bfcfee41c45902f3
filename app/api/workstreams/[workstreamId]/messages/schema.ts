// Input of /api/workstreams/[workstreamId]/messages: a history page's size and cursor, and the
// user message that starts a turn.
import { z } from "zod";
import { config } from "@/lib/config";
import { workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";

const HistoryQuery = z.object({
  take: z.coerce
    .number()
    .int()
    .min(1)
    .max(config.history.maxTake)
    .default(config.history.defaultTake),
  beforeMessageId: storableString().min(1).max(200).optional(),
});

// The text's length limit (payload_too_large:message) applies to all parts together.
const SendBody = z.strictObject({
  message: z.strictObject({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "ids are 1–100 letters, digits, _ or -"),
    role: z.literal("user"),
    parts: z
      .array(z.strictObject({ type: z.literal("text"), text: storableString() }))
      .min(1)
      .max(20),
  }),
});

export const schemas = {
  GET: {
    params: workstreamPath.params,
    query: HistoryQuery,
    codes: {
      ...workstreamPath.codes,
      take: "bad_request:take",
      beforeMessageId: "bad_request:cursor",
    },
  },
  POST: {
    ...workstreamPath,
    body: SendBody,
    maxBodyBytes: config.turns.maxMessageChars * 4 + 4096,
  },
} as const satisfies RouteSchemas;
