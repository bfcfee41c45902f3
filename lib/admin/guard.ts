// The admin console's guard: a signed-in owner or admin of the active organization. Members get
// 403 `forbidden:role`; resources of other organizations are 404 further down.
import "server-only";
import { requireRole, requireViewer, type Viewer } from "@/lib/auth/viewer";

export async function requireAdmin(request: Request): Promise<Viewer> {
  const viewer = await requireViewer(request);
  requireRole(viewer, ["owner", "admin"]);
  return viewer;
}

export function organizationScope(viewer: Viewer) {
  return { kind: "organization", organizationId: viewer.organizationId } as const;
}
