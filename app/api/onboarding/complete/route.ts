// POST: complete the viewer's onboarding: provisions the completed direct agents and the core
// workstreams (idempotent; `changed` is false when it was already complete).
import { requireViewer } from "@/lib/auth/viewer";
import { json, route } from "@/lib/http/respond";
import { completeOnboarding } from "@/lib/workstreams/onboarding";

export const POST = route(async (request) => {
  const viewer = await requireViewer(request);
  return json(await completeOnboarding(viewer));
});
