// Who is asking: the signed-in user, their active organization and their role in it. Every API
// route and page of the signed-in app starts here.
import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { executePrepared } from "@/db/client";
import { AppError } from "@/lib/kernel/errors";
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

/** The session and membership columns `viewerSql` selects, one row or none. */
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

/**
 * A request's session, its cookie's signature verified, whose row is not read yet: the statement
 * that does the request's work checks it (see `viewerSql`) and `viewerFromRow` reads the answer.
 */
export type SessionClaim = { token: string; headers: Headers };

/** Who a request acts for: a viewer already checked, or a session its own statement checks. */
export type Caller = { viewer: Viewer } | { session: SessionClaim };

// better-auth's defaults: a session lives 7 days and is extended once it is a day old.
const SESSION_LIFETIME_MS = 7 * 24 * 3600_000;
const SESSION_UPDATE_AGE_MS = 24 * 3600_000;

/**
 * The session by its token (unexpired), its user, and the membership in the session's
 * organization (the first one when none is active): at most one `ViewerRow`, by indexes. A
 * statement may embed it (as a CTE) to check the session in the same round trip as its work.
 */
export function viewerSql(token: string): SQL {
  return sql`
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
      where s.token = ${token} and s.expires_at > now()`;
}

/**
 * Who `viewerSql`'s row says is asking (none: signed out). A session due for extension is
 * extended here, through better-auth's own session read (rare, once a day).
 */
export async function viewerFromRow(
  row: ViewerRow | null | undefined,
  headers: Headers,
): Promise<ViewerResult> {
  if (!row) return { ok: false, reason: "signed_out" };
  const expiresAt = new Date(row.expires_at).getTime();
  if (expiresAt - SESSION_LIFETIME_MS + SESSION_UPDATE_AGE_MS <= Date.now()) {
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

/**
 * One indexed query (`viewerSql`). Nothing is cached, so a signed-out session or a removed member
 * loses access on the very next request.
 */
export async function resolveViewer(headers: Headers): Promise<ViewerResult> {
  const token = sessionToken(headers);
  if (!token) return { ok: false, reason: "signed_out" };
  const [row] = await executePrepared<ViewerRow>(viewerSql(token));
  return viewerFromRow(row, headers);
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

/**
 * The request's session for a statement of its own to check, or a 401 AppError when its cookie is
 * absent or not signed by us (no statement runs for it). Its answer goes through `viewerFromRow`
 * and `viewerOrRefusal`, as `requireViewer`'s does.
 */
export function claimSession(request: Request): SessionClaim {
  const token = sessionToken(request.headers);
  if (!token) throw new AppError("unauthorized:auth");
  return { token, headers: request.headers };
}

export function requireRole(viewer: Viewer, roles: readonly Role[]): void {
  if (!roles.includes(viewer.role)) {
    throw new AppError("forbidden:role");
  }
}

/**
 * Where a statement takes its caller from: the checked viewer's ids, or its own read of the
 * session (a CTE the statement's reads join on, and whose row comes back for the refusals; read
 * it with `callerOf`).
 */
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
  return {
    cte: sql`caller as (${viewerSql(caller.session.token)}),`,
    // Null without a session or a membership: no workstream matches, so nothing is written.
    organizationId: sql`(select "organization_id" from caller)`,
    userId: sql`(select "user_id" from caller)`,
    row: sql`(select to_json(c) from caller c)`,
  };
}

/**
 * The viewer a statement built with `callerSql` acted for: the checked one, or the one its
 * caller row names (401/403 when it names none).
 */
export async function callerOf(caller: Caller, row: unknown): Promise<Viewer> {
  if ("viewer" in caller) return caller.viewer;
  const parsed = (typeof row === "string" ? JSON.parse(row) : row) as ViewerRow | null;
  return viewerOrRefusal(await viewerFromRow(parsed, caller.session.headers));
}
