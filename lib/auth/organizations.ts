// Organizations and memberships as the app reads them. better-auth writes most of these rows;
// the personal organization made at sign-up is written here.
import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import { getDb } from "@/db/client";
import { member, organization, session, user } from "@/db/schema";

export type Role = "owner" | "admin" | "member";

/**
 * Spread into a server-side sign-up call (`auth.api.signUpEmail({ body, ...this })`) whose caller
 * puts the new user into an organization itself, as the demo seed does. better-auth passes the
 * call's own fields to the user-created hook as its endpoint context, so the hook reads it for
 * that one call; a sign-up over HTTP has no way to set it.
 */
export const withoutPersonalOrganization = { personalOrganization: false } as const;

/** Whether the sign-up running in this endpoint context gets an organization of its own. */
export function wantsPersonalOrganization(endpointContext: unknown): boolean {
  return !(
    endpointContext &&
    typeof endpointContext === "object" &&
    "personalOrganization" in endpointContext &&
    endpointContext.personalOrganization === false
  );
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "org"
  );
}

export async function createPersonalOrganization({
  userId,
  userName,
}: {
  userId: string;
  userName: string;
}): Promise<string> {
  const db = await getDb();
  const id = crypto.randomUUID();
  const name = `${userName.trim() || "My"}'s organization`;
  const slug = `${slugify(userName)}-${id.slice(0, 8)}`;
  await db.transaction(async (tx) => {
    await tx.insert(organization).values({ id, name, slug });
    await tx
      .insert(member)
      .values({ id: crypto.randomUUID(), organizationId: id, userId, role: "owner" });
    // better-auth runs this hook after the sign-up session exists: open it on the new organization.
    await tx
      .update(session)
      .set({ activeOrganizationId: id })
      .where(and(eq(session.userId, userId), isNull(session.activeOrganizationId)));
  });
  return id;
}

export async function firstOrganizationId({ userId }: { userId: string }): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ organizationId: member.organizationId })
    .from(member)
    .where(eq(member.userId, userId))
    .orderBy(asc(member.createdAt))
    .limit(1);
  return row?.organizationId ?? null;
}

/**
 * The membership a session acts in: the one in its active organization, or the user's first
 * when none is active. Null when there is none (a removed member's session still names the
 * organization: it gets none, never another one's).
 */
export async function findSessionMembership({
  userId,
  activeOrganizationId,
}: {
  userId: string;
  activeOrganizationId: string | null;
}): Promise<{ organizationId: string; organizationName: string; role: Role } | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      organizationId: member.organizationId,
      organizationName: organization.name,
      role: member.role,
    })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(
      activeOrganizationId === null
        ? eq(member.userId, userId)
        : and(eq(member.userId, userId), eq(member.organizationId, activeOrganizationId)),
    )
    .orderBy(asc(member.createdAt))
    .limit(1);
  return row ? { ...row, role: toRole(row.role) } : null;
}

export async function getMembership({
  userId,
  organizationId,
}: {
  userId: string;
  organizationId: string;
}): Promise<{ role: Role; organizationName: string; organizationSlug: string } | null> {
  const db = await getDb();
  const [row] = await db
    .select({ role: member.role, name: organization.name, slug: organization.slug })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(and(eq(member.userId, userId), eq(member.organizationId, organizationId)))
    .limit(1);
  if (!row) return null;
  return { role: toRole(row.role), organizationName: row.name, organizationSlug: row.slug };
}

export async function listMemberships({ userId }: { userId: string }) {
  const db = await getDb();
  const rows = await db
    .select({
      id: organization.id,
      name: organization.name,
      slug: organization.slug,
      role: member.role,
    })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(member.userId, userId))
    .orderBy(asc(organization.name));
  return rows.map((row) => ({ ...row, role: toRole(row.role) }));
}

export type OrganizationMember = {
  id: string;
  userId: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: Date;
};

/** Everyone in the organization, oldest membership first. Callers check the viewer belongs. */
export async function listOrganizationMembers({
  organizationId,
}: {
  organizationId: string;
}): Promise<OrganizationMember[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: member.id,
      userId: member.userId,
      name: user.name,
      email: user.email,
      role: member.role,
      joinedAt: member.createdAt,
    })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(eq(member.organizationId, organizationId))
    .orderBy(asc(member.createdAt), asc(user.name));
  return rows.map((row) => ({ ...row, role: toRole(row.role) }));
}

export function toRole(value: string): Role {
  // better-auth stores several roles comma-separated; the strongest one counts.
  const roles = value.split(",").map((role) => role.trim());
  if (roles.includes("owner")) return "owner";
  if (roles.includes("admin")) return "admin";
  return "member";
}
