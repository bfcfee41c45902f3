// Invitations into an organization, in better-auth's invitation table. There is no mail server,
// so the admin console shows the invitation link to copy; the link's id is a random UUID, and
// accepting also requires being signed in with the invited email address. Accepting joins the
// organization; the client then makes it the active one (better-auth's set-active, which also
// refreshes the session cookie).
import "server-only";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { getDb, transaction } from "@/db/client";
import { invitation, member, organization, user } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";
import { type Role, toRole } from "./organizations";
import type { Viewer } from "./viewer";

export const INVITATION_TTL_DAYS = 7;
type Actor = Pick<Viewer, "userId" | "organizationId" | "role">;

export type InvitationSummary = {
  id: string;
  email: string;
  role: Role;
  status: string;
  expiresAt: string;
  createdAt: string;
  inviterName: string | null;
};

function expiry(): Date {
  return new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000);
}

export async function createInvitation({
  actor,
  email,
  role,
}: {
  actor: Actor;
  email: string;
  role: Role;
}): Promise<{ invitation: InvitationSummary; created: boolean }> {
  if (role === "owner" && actor.role !== "owner") {
    throw new AppError("forbidden:owner_only");
  }
  const address = email.trim().toLowerCase();
  const db = await getDb();
  const [existingMember] = await db
    .select({ id: member.id })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(
      and(eq(member.organizationId, actor.organizationId), sql`lower(${user.email}) = ${address}`),
    )
    .limit(1);
  if (existingMember) {
    throw new AppError("conflict:already_member");
  }
  // Inviting the same address again renews the pending invitation instead of adding another.
  const [pending] = await db
    .select({ id: invitation.id })
    .from(invitation)
    .where(
      and(
        eq(invitation.organizationId, actor.organizationId),
        eq(invitation.email, address),
        eq(invitation.status, "pending"),
      ),
    )
    .limit(1);
  let id: string;
  if (pending) {
    id = pending.id;
    await db
      .update(invitation)
      .set({ role, expiresAt: expiry(), inviterId: actor.userId })
      .where(eq(invitation.id, id));
  } else {
    id = crypto.randomUUID();
    await db.insert(invitation).values({
      id,
      organizationId: actor.organizationId,
      email: address,
      role,
      status: "pending",
      expiresAt: expiry(),
      inviterId: actor.userId,
    });
  }
  const [summary] = (await listInvitations({ organizationId: actor.organizationId, id })) ?? [];
  if (!summary) throw new Error("invitation vanished after writing it");
  return { invitation: summary, created: !pending };
}

export async function listInvitations({
  organizationId,
  id,
}: {
  organizationId: string;
  id?: string;
}): Promise<InvitationSummary[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      status: invitation.status,
      expiresAt: invitation.expiresAt,
      createdAt: invitation.createdAt,
      inviterName: user.name,
    })
    .from(invitation)
    .leftJoin(user, eq(user.id, invitation.inviterId))
    .where(
      and(
        eq(invitation.organizationId, organizationId),
        id
          ? eq(invitation.id, id)
          : and(eq(invitation.status, "pending"), gt(invitation.expiresAt, new Date())),
      ),
    )
    .orderBy(desc(invitation.createdAt));
  return rows.map((row) => ({
    ...row,
    role: toRole(row.role ?? "member"),
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  }));
}

/** Cancels a pending invitation (idempotent); an accepted one answers 409. */
export async function cancelInvitation({
  actor,
  invitationId,
}: {
  actor: Actor;
  invitationId: string;
}): Promise<{ id: string; status: string }> {
  const db = await getDb();
  const [row] = await db
    .select({ id: invitation.id, status: invitation.status })
    .from(invitation)
    .where(
      and(eq(invitation.id, invitationId), eq(invitation.organizationId, actor.organizationId)),
    )
    .limit(1);
  if (!row) throw new AppError("not_found:invitation");
  if (row.status === "accepted") {
    throw new AppError("conflict:invitation_accepted");
  }
  if (row.status !== "canceled") {
    await db.update(invitation).set({ status: "canceled" }).where(eq(invitation.id, row.id));
  }
  return { id: row.id, status: "canceled" };
}

export type InvitationView = {
  id: string;
  organizationId: string;
  organizationName: string;
  role: Role;
  inviterName: string | null;
  state: "pending" | "accepted" | "canceled" | "expired";
  /** Whether the signed-in person is the one invited. */
  forViewer: boolean;
};

/** What the invitation page shows. The invited address is never revealed to someone else. */
export async function viewInvitation({
  invitationId,
  email,
}: {
  invitationId: string;
  email: string | null;
}): Promise<InvitationView | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      id: invitation.id,
      email: invitation.email,
      organizationId: invitation.organizationId,
      organizationName: organization.name,
      role: invitation.role,
      status: invitation.status,
      expiresAt: invitation.expiresAt,
      inviterName: user.name,
    })
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .leftJoin(user, eq(user.id, invitation.inviterId))
    .where(eq(invitation.id, invitationId))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    role: toRole(row.role ?? "member"),
    inviterName: row.inviterName,
    state: stateOf(row),
    forViewer: email !== null && email.toLowerCase() === row.email.toLowerCase(),
  };
}

function stateOf(row: { status: string; expiresAt: Date }): InvitationView["state"] {
  if (row.status === "accepted" || row.status === "canceled") return row.status;
  if (row.status !== "pending" || row.expiresAt.getTime() <= Date.now()) return "expired";
  return "pending";
}

/**
 * Accepts an invitation for the signed-in user: they join with the invited role. Someone other
 * than the invited address gets a 404 (the invitation is not theirs to see).
 */
export async function acceptInvitation({
  invitationId,
  userId,
  email,
}: {
  invitationId: string;
  userId: string;
  email: string;
}): Promise<{ organizationId: string; role: Role }> {
  return transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(invitation)
      .where(eq(invitation.id, invitationId))
      .for("update")
      .limit(1);
    if (!row || row.email.toLowerCase() !== email.toLowerCase()) {
      throw new AppError("not_found:invitation");
    }
    const role = toRole(row.role ?? "member");
    const state = stateOf(row);
    if (state === "canceled") {
      throw new AppError("conflict:invitation_canceled");
    }
    if (state === "expired") {
      throw new AppError("conflict:invitation_expired");
    }
    if (state === "accepted") {
      // Accepting twice answers the same; an accepted invitation never lets a removed member
      // back in.
      const [joined] = await tx
        .select({ role: member.role })
        .from(member)
        .where(and(eq(member.organizationId, row.organizationId), eq(member.userId, userId)))
        .limit(1);
      if (!joined) {
        throw new AppError("conflict:invitation_accepted");
      }
      return { organizationId: row.organizationId, role: toRole(joined.role) };
    }
    await tx
      .insert(member)
      .values({ id: crypto.randomUUID(), organizationId: row.organizationId, userId, role })
      .onConflictDoNothing();
    await tx.update(invitation).set({ status: "accepted" }).where(eq(invitation.id, row.id));
    return { organizationId: row.organizationId, role };
  });
}
