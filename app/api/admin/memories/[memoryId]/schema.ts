// Input of /api/admin/memories/[memoryId]: the memory's id; PATCH `{ text?, importance? }`.
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { MemoryEdit, memoryPath } from "../../../memories/[memoryId]/schema";

export const schemas = {
  PATCH: { ...memoryPath, body: MemoryEdit, codes: { importance: "bad_request:validation" } },
  DELETE: memoryPath,
} as const satisfies RouteSchemas;
