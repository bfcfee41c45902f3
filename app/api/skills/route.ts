// GET: the viewer's own skills (learned from their conversations) and the organization's (shared
// by a member), newest first.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { listSkills } from "@/lib/skills/store";
import { managesOrganizationSkills, skillView } from "@/lib/skills/views";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request }) => {
    const viewer = await requireViewer(request);
    const [own, organization] = await Promise.all([
      listSkills({ owner: { organizationId: viewer.organizationId, userId: viewer.userId } }),
      listSkills({ owner: { organizationId: viewer.organizationId, userId: null } }),
    ]);
    return json({
      skills: own.map(skillView),
      organization: organization.map(skillView),
      managesOrganization: managesOrganizationSkills(viewer),
    });
  },
});
