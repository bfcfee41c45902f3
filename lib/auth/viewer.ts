// Who is asking: the signed-in user, their active organization and their role in it. Every API
// route and page of the signed-in app starts here: better-auth reads the session, then one
// query reads the membership it acts in.
import "server-only";
import { AppError } from "@/lib/kernel/errors";
import { findSessionMembership, type Role } from "./organizations";
import { readSession } from "./session";

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

/**
 * The session (better-auth's read, never its cookie cache) and then the membership it acts in.
 * Nothing is cached, so a signed-out session or a removed member loses access on the very next
 * request.
 */
export async function resolveViewer(headers: Headers): Promise<ViewerResult> {
  const session = await readSession(headers);
  if (!session) return { ok: false, reason: "signed_out" };
  const membership = await findSessionMembership({
    userId: session.userId,
    activeOrganizationId: session.activeOrganizationId,
  });
  if (!membership) {
    return {
      ok: false,
      reason: session.activeOrganizationId ? "not_a_member" : "no_organization",
    };
  }
  return {
    ok: true,
    viewer: {
      userId: session.userId,
      userName: session.userName,
      email: session.email,
      sessionId: session.sessionId,
      ...membership,
    },
  };
}

/** The viewer, or the 401/403 AppError of an API request that has none. */
export function viewerOrRefusal(result: ViewerResult): Viewer {
  if (result.ok) return result.viewer;
  if (result.reason === "signed_out") throw new AppError("unauthorized:auth");
  throw new AppError("forbidden:organization");
}

/** The viewer of an API request, or a 401/403 AppError. */
export async function requireViewer(request: Request): Promise<Viewer> {
  return viewerOrRefusal(await resolveViewer(request.headers));
}

export function requireRole(viewer: Viewer, roles: readonly Role[]): void {
  if (!roles.includes(viewer.role)) {
    throw new AppError("forbidden:role");
  }
}
