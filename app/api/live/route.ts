// GET: the viewer's live channel (Server-Sent Events): changes to their workstreams (created,
// renamed, archived, title, running, compacting, deleted), recent activity and onboarding.
// `?scope=organization` follows every workstream of the organization instead: owners and
// admins only (summaries are metadata, never message content).
import { z } from "zod";
import { requireRole, requireViewer } from "@/lib/auth/viewer";
import { parseInput, queryOf } from "@/lib/http/parse";
import { route } from "@/lib/http/respond";
import { liveResponse } from "@/lib/live/sse";

const Query = z.object({ scope: z.enum(["user", "organization"]).default("user") });

export const GET = route(async (request) => {
  const viewer = await requireViewer(request);
  const { scope } = parseInput(Query, queryOf(request), { scope: "bad_request:scope" });
  if (scope === "organization") requireRole(viewer, ["owner", "admin"]);
  return liveResponse({
    topic:
      scope === "organization"
        ? { kind: "organization", organizationId: viewer.organizationId }
        : { kind: "user", organizationId: viewer.organizationId, userId: viewer.userId },
    signal: request.signal,
  });
});
