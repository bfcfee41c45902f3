// Input of /api/admin/memories: GET a search and the page; POST `{ text, importance? }`, a new
// organization memory.
import { z } from "zod";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";
import { MEMORY_LIST_CODES, MemoryListQuery } from "../../memories/schema";

export const schemas = {
  GET: { query: MemoryListQuery, codes: MEMORY_LIST_CODES },
  POST: {
    // The text's length is the store's to check (bad_request:too_long with the limit).
    body: z.strictObject({
      text: storableString(),
      importance: z.number().int().min(1).max(10).optional(),
    }),
  },
} as const satisfies RouteSchemas;
