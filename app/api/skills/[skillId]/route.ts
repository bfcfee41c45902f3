// PATCH `{ name?, whenToUse?, steps? }`: edit one of the viewer's skills (owners and admins: also
// the organization's). DELETE: remove it. Another member's skill is not found.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { deleteSkill, updateSkill } from "@/lib/skills/store";
import { skillView, withEditableSkill } from "@/lib/skills/views";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  PATCH: async ({ request, params, body }) => {
    const viewer = await requireViewer(request);
    const skill = await withEditableSkill(viewer, (owner) =>
      updateSkill({ owner, id: params.skillId, ...body }),
    );
    return json({ skill: skillView(skill) });
  },
  DELETE: async ({ request, params }) => {
    const viewer = await requireViewer(request);
    await withEditableSkill(viewer, (owner) => deleteSkill({ owner, id: params.skillId }));
    return json({ deleted: true });
  },
});
