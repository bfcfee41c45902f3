// The signed-in user of a request, whether or not they belong to an organization yet (accepting
// an invitation is how someone without one joins).
import "server-only";
import { AppError } from "@/lib/kernel/errors";
import { getAuth } from "./auth";

export async function requireSessionUser(
  request: Request,
): Promise<{ userId: string; email: string }> {
  const auth = await getAuth(request.headers);
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) throw new AppError("unauthorized:auth");
  return { userId: session.user.id, email: session.user.email };
}

/** The signed-in user of a page request, or null. */
export async function findSessionUser(
  headers: Headers,
): Promise<{ userId: string; email: string; name: string } | null> {
  const auth = await getAuth(headers);
  const session = await auth.api.getSession({ headers });
  return session
    ? { userId: session.user.id, email: session.user.email, name: session.user.name }
    : null;
}
