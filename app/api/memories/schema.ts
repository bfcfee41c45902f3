// Input of /api/memories: which list (the viewer's own, or the organization's), a search and the
// page.
import { z } from "zod";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";
import { MEMORY_PAGE_MAX } from "@/lib/memory/store";

export const MemoryListQuery = z.object({
  q: storableString().max(200).optional(),
  before: storableString().min(1).max(300).optional(),
  limit: z.coerce.number().int().min(1).max(MEMORY_PAGE_MAX).optional(),
});

export const MEMORY_LIST_CODES = {
  q: "bad_request:q",
  before: "bad_request:cursor",
  limit: "bad_request:limit",
} as const;

export const schemas = {
  GET: {
    query: MemoryListQuery.extend({ scope: z.enum(["mine", "organization"]).optional() }),
    codes: { ...MEMORY_LIST_CODES, scope: "bad_request:scope" },
  },
} as const satisfies RouteSchemas;
