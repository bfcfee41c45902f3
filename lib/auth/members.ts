// Changing members' roles and removing members (the admin console). The rules match
// better-auth's organization plugin, whose own endpoints stay available: owners and admins manage
// members; only an owner may touch an owner or make one; an organization always keeps an owner;
// nobody removes themselves here. A removed member's workstreams stay with the organization
// (owner_id is kept; admins see them as a former member's, read-only).
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { member, session } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";
import { type Role, toRole } from "./organizations";
import type { Viewer } from "./viewer";

type Actor = Pick<Viewer, "userId" | "organizationId" | "role">;

async function requireMember(organizationId: string, memberId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ id: member.id, userId: member.userId, role: member.role })
    .from(member)
    .where(and(eq(member.id, memberId), eq(member.organizationId, organizationId)))
    .limit(1);
  if (!row) throw new AppError("not_found:member");
  return { ...row, role: toRole(row.role) };
}

async function ownerCount(organizationId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ count: sql<number>`count(*)` })
    .from(member)
    .where(and(eq(member.organizationId, organizationId), sql`${member.role} like '%owner%'`));
  return Number(row?.count ?? 0);
}

function requireOwnerFor(actor: Actor, action: string): void {
  if (actor.role !== "owner") {
    throw new AppError("forbidden:owner_only", { details: { action } });
  }
}

export async function changeMemberRole({
  actor,
  memberId,
  role,
}: {
  actor: Actor;
  memberId: string;
  role: Role;
}): Promise<{ id: string; role: Role }> {
  const target = await requireMember(actor.organizationId, memberId);
  if (target.role === role) return { id: target.id, role };
  if (target.role === "owner") requireOwnerFor(actor, "change an owner's role");
  if (role === "owner") requireOwnerFor(actor, "make someone an owner");
  if (target.role === "owner" && (await ownerCount(actor.organizationId)) <= 1) {
    throw new AppError("conflict:last_owner");
  }
  const db = await getDb();
  await db.update(member).set({ role }).where(eq(member.id, target.id));
  return { id: target.id, role };
}

export async function removeMember({
  actor,
  memberId,
}: {
  actor: Actor;
  memberId: string;
}): Promise<{ id: string; userId: string }> {
  const target = await requireMember(actor.organizationId, memberId);
  if (target.userId === actor.userId) {
    throw new AppError("conflict:self_removal");
  }
  if (target.role === "owner") requireOwnerFor(actor, "remove an owner");
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(member).where(eq(member.id, target.id));
    // Their sessions stop pointing at this organization; their next request opens their first
    // remaining organization instead.
    await tx
      .update(session)
      .set({ activeOrganizationId: null })
      .where(
        and(
          eq(session.userId, target.userId),
          eq(session.activeOrganizationId, actor.organizationId),
        ),
      );
  });
  return { id: target.id, userId: target.userId };
}
