// Who is asking: the signed-in user, their active organization and their role in it. Every API
// route and page of the signed-in app starts here: better-auth reads the session, then one
// query reads the membership it acts in.
import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { AppError } from "@/lib/kernel/errors";
import { getAuth } from "./auth";
import { findSessionMembership, type Role, toRole } from "./organizations";
import { readSession } from "./session";
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

// Removed once the turn opener takes a Viewer (issue 42).
export type ViewerRow = {
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

// Removed once the turn opener takes a Viewer (issue 42).
export type SessionClaim = { token: string; headers: Headers };

// Removed once the turn opener takes a Viewer (issue 42).
export type Caller = { viewer: Viewer } | { session: SessionClaim };

// Removed once the turn opener takes a Viewer (issue 42).
export function claimSession(request: Request): SessionClaim {
  const token = sessionToken(request.headers);
  if (!token) throw new AppError("unauthorized:auth");
  return { token, headers: request.headers };
}

// Removed once the turn opener takes a Viewer (issue 42).
export function callerSql(caller: Caller): {
  cte: SQL;
  organizationId: SQL;
  userId: SQL;
  row: SQL;
} {
  if ("viewer" in caller) {
    const { organizationId, userId } = caller.viewer;
    return {
      cte: sql``,
      organizationId: sql`${organizationId}`,
      userId: sql`${userId}`,
      row: sql`null`,
    };
  }
  const token = caller.session.token;
  return {
    cte: sql`caller as (
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
      where s.token = ${token} and s.expires_at > now()),`,
    // Null without a session or a membership: no workstream matches, so nothing is written.
    organizationId: sql`(select "organization_id" from caller)`,
    userId: sql`(select "user_id" from caller)`,
    row: sql`(select to_json(c) from caller c)`,
  };
}

// Removed once the turn opener takes a Viewer (issue 42).
export async function callerOf(caller: Caller, row: unknown): Promise<Viewer> {
  if ("viewer" in caller) return caller.viewer;
  const parsed = (typeof row === "string" ? JSON.parse(row) : row) as ViewerRow | null;
  if (!parsed) throw new AppError("unauthorized:auth");
  // A session due for extension is extended by better-auth's own read, by its own rules.
  const { expiresIn, updateAge } = (await (await getAuth(caller.session.headers)).$context)
    .sessionConfig;
  if (new Date(parsed.expires_at).getTime() - (expiresIn - updateAge) * 1000 <= Date.now()) {
    await readSession(caller.session.headers);
  }
  if (!parsed.organization_id || !parsed.role || parsed.organization_name === null) {
    throw new AppError("forbidden:organization");
  }
  return {
    userId: parsed.user_id,
    userName: parsed.name,
    email: parsed.email,
    sessionId: parsed.session_id,
    organizationId: parsed.organization_id,
    organizationName: parsed.organization_name,
    role: toRole(parsed.role),
  };
}
