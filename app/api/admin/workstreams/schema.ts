// Input of /api/admin/workstreams: the list's search, filters and page.
import { z } from "zod";
import { ADMIN_KINDS, ADMIN_SEARCH_MAX_CHARS } from "@/lib/admin/workstreams";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";
import { MAX_PAGE } from "@/lib/workstreams/list";

const AdminListQuery = z.object({
  q: storableString().max(ADMIN_SEARCH_MAX_CHARS).optional(),
  kind: z.enum(ADMIN_KINDS).optional(),
  status: z.enum(["regular", "archived", "all"]).optional(),
  running: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional(),
  ownerId: storableString().min(1).max(100).optional(),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).optional(),
});

const ADMIN_LIST_CODES = {
  q: "bad_request:q",
  kind: "bad_request:kind",
  status: "bad_request:status",
  running: "bad_request:running",
  ownerId: "bad_request:owner",
  page: "bad_request:page",
} as const;

export const schemas = {
  GET: { query: AdminListQuery, codes: ADMIN_LIST_CODES },
} as const satisfies RouteSchemas;
