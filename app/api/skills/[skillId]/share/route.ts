// POST `{ confirm: true }`: share one of the viewer's own skills with the organization (every
// member's agents are then offered it). Without the confirmation nothing changes.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { AppError } from "@/lib/kernel/errors";
import { shareSkill } from "@/lib/skills/store";
import { skillView } from "@/lib/skills/views";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request, params, body }) => {
    const viewer = await requireViewer(request);
    if (body.confirm !== true) throw new AppError("bad_request:confirmation");
    const skill = await shareSkill({
      owner: { organizationId: viewer.organizationId, userId: viewer.userId },
      id: params.skillId,
    });
    return json({ skill: skillView(skill) });
  },
});
