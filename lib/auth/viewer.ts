// Who is asking: the signed-in user, their active organization and their role in it. Every API
// route and page of the signed-in app starts here.
import "server-only";
import { sql } from "drizzle-orm";
import { executePrepared } from "@/db/client";
import { AppError } from "@/lib/http/errors";
import { getAuth } from "./auth";
import { type Role, toRole } from "./organizations";
import { sessionToken } from "./session-token";

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

type ViewerRow = {
  session_id: string;
  user_id: string;
  expires_at: Date | string;
  active_organization_id: string | null;
  name: string;
  email: string;
  organization_id: string | null;
  role: string | null;
  organization_name: string | null;
};

// better-auth's defaults: a session lives 7 days and is extended once it is a day old.
const SESSION_LIFETIME_MS = 7 * 24 * 3600_000;
const SESSION_UPDATE_AGE_MS = 24 * 3600_000;

/**
 * One indexed query: the session by its token (unexpired), its user, and the membership in the
 * session's organization (the first one when none is active). Nothing is cached, so a signed-out
 * session or a removed member loses access on the very next request.
 */
export async function resolveViewer(headers: Headers): Promise<ViewerResult> {
  const token = sessionToken(headers);
  if (!token) return { ok: false, reason: "signed_out" };
  const [row] = await executePrepared<ViewerRow>(sql`
      select s.id as session_id, s.user_id, s.expires_at, s.active_organization_id,
             u.name, u.email, m.organization_id, m.role, o.name as organization_name
      from "session" s
      join "user" u on u.id = s.user_id
      left join lateral (
        select organization_id, role from "member"
        where user_id = s.user_id
          and (s.active_organization_id is null or organization_id = s.active_organization_id)
        order by created_at asc
        limit 1
      ) m on true
      left join "organization" o on o.id = m.organization_id
      where s.token = ${token} and s.expires_at > now()`);
  if (!row) return { ok: false, reason: "signed_out" };
  const expiresAt = new Date(row.expires_at).getTime();
  if (expiresAt - SESSION_LIFETIME_MS + SESSION_UPDATE_AGE_MS <= Date.now()) {
    // Due for extension: better-auth's own session read extends it (rare, once a day).
    await (await getAuth(headers)).api.getSession({ headers });
  }
  if (!row.organization_id || !row.role || row.organization_name === null) {
    return {
      ok: false,
      reason: row.active_organization_id ? "not_a_member" : "no_organization",
    };
  }
  return {
    ok: true,
    viewer: {
      userId: row.user_id,
      userName: row.name,
      email: row.email,
      sessionId: row.session_id,
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      role: toRole(row.role),
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
