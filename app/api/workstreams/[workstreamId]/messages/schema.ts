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

// An uploaded file of this workstream, named by id; the route checks it and takes its type and
// name from the upload (a signed or outside URL is refused).
const FilePart = z.strictObject({
  type: z.literal("file"),
  mediaType: storableString().max(200),
  filename: storableString().max(300).optional(),
  url: storableString().max(200),
});

// The text's length limit (payload_too_large:message) applies to all parts together.
const SendBody = z.strictObject({
  message: z.strictObject({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "ids are 1–100 letters, digits, _ or -"),
    role: z.literal("user"),
    parts: z
      .array(
        z.discriminatedUnion("type", [
          z.strictObject({ type: z.literal("text"), text: storableString() }),
          FilePart,
        ]),
      )
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
