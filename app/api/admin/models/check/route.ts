// POST: runs the model check (owners and admins): a few tiny calls to each configured model and
// the table of what worked, each failure's status and message, and what the catalogue assumes.
// Nothing of it is kept; the answer is the table.
import { requireAdmin } from "@/lib/admin/guard";
import { checkModels } from "@/lib/admin/model-check";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request }) => {
    await requireAdmin(request);
    return json(await checkModels());
  },
});
