// GET: the viewer's onboarding state in their organization. POST: start the bootstrap (a new
// member starts in onboarding with the onboarding direct agents); idempotent, so the app calls
// it on every load and it provisions whatever the member's state calls for.
import { requireViewer } from "@/lib/auth/viewer";
import { json, route } from "@/lib/http/respond";
import { bootstrapMember, getOnboardingState } from "@/lib/workstreams/onboarding";

export const GET = route(async (request) => {
  const viewer = await requireViewer(request);
  return json({ state: await getOnboardingState(viewer) });
});

export const POST = route(async (request) => {
  const viewer = await requireViewer(request);
  return json({ state: await bootstrapMember(viewer) });
});
