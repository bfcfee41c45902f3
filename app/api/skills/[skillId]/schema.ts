// Input of /api/skills/[skillId]: the skill's id; PATCH `{ name?, whenToUse?, steps? }`.
import { z } from "zod";
import { pathId } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";

export const skillPath = { params: z.object({ skillId: pathId() }) } as const;

/** Lengths are the store's to check, so an over-long field answers bad_request:too_long. */
const SkillEdit = z.strictObject({
  name: storableString().optional(),
  whenToUse: storableString().optional(),
  steps: z.array(storableString()).max(100).optional(),
});

export const schemas = {
  PATCH: { ...skillPath, body: SkillEdit },
  DELETE: skillPath,
} as const satisfies RouteSchemas;
