// The request's session, read by better-auth: its cookie's signature, the session row by its
// token (unexpired) and its user. Every signed-in route and page reads it through here.
import "server-only";
import { APIError } from "better-auth/api";
import { getAuth } from "./auth";

export type SessionRead = {
  sessionId: string;
  userId: string;
  userName: string;
  email: string;
  /** The organization the session opened on or switched to, if any. */
  activeOrganizationId: string | null;
};

/**
 * The request's session, or null when it is signed out. Read from the database on every call
 * (never from the cookie cache), so a session signed out elsewhere stops working on the very next
 * request. A session a day old is extended here: better-auth writes the new expiry and its
 * nextCookies plugin sets the renewed cookie on the route's response.
 */
export async function readSession(headers: Headers): Promise<SessionRead | null> {
  const auth = await getAuth(headers);
  let found: Awaited<ReturnType<typeof auth.api.getSession>>;
  try {
    found = await auth.api.getSession({ headers, query: { disableCookieCache: true } });
  } catch (error) {
    // The session was deleted while its extension was being written: it is signed out.
    if (error instanceof APIError && error.status === "UNAUTHORIZED") return null;
    throw error;
  }
  if (!found) return null;
  return {
    sessionId: found.session.id,
    userId: found.user.id,
    userName: found.user.name,
    email: found.user.email,
    activeOrganizationId: found.session.activeOrganizationId ?? null,
  };
}
