// Input of /api/memories/[memoryId]/share: `{ confirm: true }`, the member's explicit yes.
import { z } from "zod";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { memoryPath } from "../schema";

/** Anything but `confirm: true` is refused with bad_request:confirmation by the handler. */
export const ShareBody = z.strictObject({ confirm: z.boolean().optional() });

export const schemas = {
  POST: { ...memoryPath, body: ShareBody },
} as const satisfies RouteSchemas;
