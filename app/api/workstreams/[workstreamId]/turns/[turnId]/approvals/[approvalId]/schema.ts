// Input of /api/workstreams/[workstreamId]/turns/[turnId]/approvals/[approvalId]: the ids in the
// path and the owner's decision. Nothing else: the turn goes on from what the server kept.
import { z } from "zod";
import { config } from "@/lib/config";
import { pathId, workstreamPath } from "@/lib/http/params";
import type { RouteSchemas } from "@/lib/http/route-handlers";
import { storableString } from "@/lib/http/text";

const Answer = z
  .strictObject({
    approved: z.boolean(),
    reason: storableString().trim().max(config.approvals.reasonMaxChars).nullable().optional(),
    /** Approve and remember: calls like this one run without asking for so many days. */
    grantDays: z.number().int().min(1).max(config.approvals.grantMaxDays).nullable().optional(),
  })
  .refine((answer) => answer.approved || !answer.grantDays, {
    message: "Only an approval can be remembered.",
    path: ["grantDays"],
  });

export const schemas = {
  POST: {
    params: z.object({ workstreamId: pathId(), turnId: pathId(), approvalId: pathId() }),
    body: Answer,
    codes: { ...workstreamPath.codes, reason: "bad_request:too_long" },
  },
} as const satisfies RouteSchemas;
