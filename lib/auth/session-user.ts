// The signed-in user of a request, whether or not they belong to an organization yet (accepting
// an invitation is how someone without one joins).
import "server-only";
import { AppError } from "@/lib/kernel/errors";
import { readSession } from "./session";

export async function requireSessionUser(
  request: Request,
): Promise<{ userId: string; email: string }> {
  const session = await readSession(request.headers);
  if (!session) throw new AppError("unauthorized:auth");
  return { userId: session.userId, email: session.email };
}

/** The signed-in user of a page request, or null. */
export async function findSessionUser(
  headers: Headers,
): Promise<{ userId: string; email: string; name: string } | null> {
  const session = await readSession(headers);
  return session ? { userId: session.userId, email: session.email, name: session.userName } : null;
}
