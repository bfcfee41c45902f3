// Who is asking: the signed-in user, their active organization and their role in it. Every API
// route and page of the signed-in app starts here.
import { AppError } from "@/lib/http/errors";
import { getAuth } from "./auth";
import { firstOrganizationId, getMembership, type Role } from "./organizations";

export type Viewer = {
  userId: string;
  userName: string;
  email: string;
  sessionId: string;
  organizationId: string;
  organizationName: string;
  role: Role;
};

export type ViewerResult =
  | { ok: true; viewer: Viewer }
  | { ok: false; reason: "signed_out" | "no_organization" | "not_a_member" };

export async function resolveViewer(headers: Headers): Promise<ViewerResult> {
  const auth = await getAuth(headers);
  const session = await auth.api.getSession({ headers });
  if (!session) return { ok: false, reason: "signed_out" };
  const userId = session.user.id;
  const organizationId =
    session.session.activeOrganizationId ?? (await firstOrganizationId({ userId }));
  if (!organizationId) return { ok: false, reason: "no_organization" };
  const membership = await getMembership({ userId, organizationId });
  if (!membership) return { ok: false, reason: "not_a_member" };
  return {
    ok: true,
    viewer: {
      userId,
      userName: session.user.name,
      email: session.user.email,
      sessionId: session.session.id,
      organizationId,
      organizationName: membership.organizationName,
      role: membership.role,
    },
  };
}

/** The viewer of an API request, or a 401/403 AppError. */
export async function requireViewer(request: Request): Promise<Viewer> {
  const result = await resolveViewer(request.headers);
  if (result.ok) return result.viewer;
  if (result.reason === "signed_out") {
    throw new AppError("unauthorized:auth");
  }
  throw new AppError("forbidden:organization");
}

export function requireRole(viewer: Viewer, roles: readonly Role[]): void {
  if (!roles.includes(viewer.role)) {
    throw new AppError("forbidden:role");
  }
}
