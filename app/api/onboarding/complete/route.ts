// POST: complete the viewer's onboarding: provisions the completed direct agents and the core
// workstreams (idempotent; `changed` is false when it was already complete).
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { completeOnboarding } from "@/lib/workstreams/onboarding";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  POST: async ({ request }) => {
    const viewer = await requireViewer(request);
    return json(await completeOnboarding(viewer));
  },
});
