// GET: the organization's tool policy, every tool an agent can have with its own default (does
// it ask?) and the organization's rule. PUT `{ rules }`: replaces the rules (owners and admins).
import { requireAdmin } from "@/lib/admin/guard";
import { toolPolicyView, updateToolPolicy } from "@/lib/admin/tool-policy";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request }) => {
    const viewer = await requireAdmin(request);
    return json(await toolPolicyView(viewer.organizationId));
  },
  PUT: async ({ request, body }) => {
    const viewer = await requireAdmin(request);
    return json(
      await updateToolPolicy({
        organizationId: viewer.organizationId,
        rules: body.rules,
        updatedBy: viewer.userId,
      }),
    );
  },
});
