// GET: the viewer's onboarding state in their organization. POST: start the bootstrap (a new
// member starts in onboarding with the onboarding direct agents); idempotent, so the app calls
// it on every load and it provisions whatever the member's state calls for.
import { requireViewer } from "@/lib/auth/viewer";
import { json } from "@/lib/http/respond";
import { routeHandlers } from "@/lib/http/route-handlers";
import { bootstrapMember, getOnboardingState } from "@/lib/workstreams/onboarding";
import { schemas } from "./schema";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(schemas, {
  GET: async ({ request }) => {
    const viewer = await requireViewer(request);
    return json({ state: await getOnboardingState(viewer) });
  },
  POST: async ({ request }) => {
    const viewer = await requireViewer(request);
    return json({ state: await bootstrapMember(viewer) });
  },
});
