// What this app checks of better-auth's routes before better-auth sees them: the path and every
// string of a JSON body must be storable (better-auth writes names, emails and organization
// names straight to the database, where U+0000 fails the insert). The fields themselves are
// better-auth's to validate.
import { z } from "zod";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableJson, storableString } from "@/lib/http/text";

const params = z.object({ all: z.array(storableString()) });

export const schemas = {
  GET: { params },
  POST: { params, body: storableJson() },
} as const satisfies RouteSchemas;
