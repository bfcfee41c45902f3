// Input of /api/files/[fileId]: a local signed URL's file id, expiry (seconds since the epoch),
// download flag and signature.
import { z } from "zod";
import { pathId } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";

export const schemas = {
  GET: {
    params: z.object({ fileId: pathId() }),
    query: z.strictObject({
      exp: z.coerce.number().int().min(0).max(99_999_999_999),
      dl: z.enum(["0", "1"]),
      sig: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
    }),
    codes: {
      exp: "forbidden:url_signature",
      dl: "forbidden:url_signature",
      sig: "forbidden:url_signature",
    },
  },
} as const satisfies RouteSchemas;
