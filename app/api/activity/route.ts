// GET: the viewer's recent activity: one entry per workstream touched, newest first.
import { z } from "zod";
import { requireViewer } from "@/lib/auth/viewer";
import { parseInput, queryOf } from "@/lib/http/parse";
import { json, route } from "@/lib/http/respond";
import { listRecentActivity } from "@/lib/workstreams/activity";

const Query = z.object({ limit: z.coerce.number().int().min(1).max(50).optional() });

export const GET = route(async (request) => {
  const viewer = await requireViewer(request);
  const { limit } = parseInput(Query, queryOf(request), { limit: "bad_request:limit" });
  return json({
    activity: await listRecentActivity({
      userId: viewer.userId,
      organizationId: viewer.organizationId,
      limit,
    }),
  });
});
