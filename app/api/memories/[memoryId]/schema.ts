// Input of /api/memories/[memoryId]: the memory's id; PATCH `{ text?, importance? }`.
import { z } from "zod";
import { pathId } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";

export const memoryPath = { params: z.object({ memoryId: pathId() }) } as const;

/** The text's length is the store's to check, so an over-long one answers bad_request:too_long. */
export const MemoryEdit = z.strictObject({
  text: storableString().optional(),
  importance: z.number().int().min(1).max(10).optional(),
});

export const schemas = {
  PATCH: { ...memoryPath, body: MemoryEdit, codes: { importance: "bad_request:validation" } },
  DELETE: memoryPath,
} as const satisfies RouteSchemas;
