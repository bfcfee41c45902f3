// Input of /api/skills/[skillId]/share: `{ confirm: true }`, the member's explicit yes.
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { ShareBody } from "../../../memories/[memoryId]/share/schema";
import { skillPath } from "../schema";

export const schemas = {
  POST: { ...skillPath, body: ShareBody },
} as const satisfies RouteSchemas;
