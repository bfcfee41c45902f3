// The admin console's member list: everyone with their role and how many workstreams they own
// here.
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workstreams } from "@/db/schema";
import { listOrganizationMembers, type OrganizationMember } from "@/lib/auth/organizations";

export type AdminMember = Omit<OrganizationMember, "joinedAt"> & {
  joinedAt: string;
  workstreamCount: number;
};

export async function listMembersWithUsage({
  organizationId,
}: {
  organizationId: string;
}): Promise<AdminMember[]> {
  const db = await getDb();
  const [members, counts] = await Promise.all([
    listOrganizationMembers({ organizationId }),
    db
      .select({ ownerId: workstreams.ownerId, count: sql<number>`count(*)` })
      .from(workstreams)
      .where(and(eq(workstreams.organizationId, organizationId)))
      .groupBy(workstreams.ownerId),
  ]);
  const byOwner = new Map(counts.map((row) => [row.ownerId, Number(row.count)]));
  return members.map((item) => ({
    ...item,
    joinedAt: item.joinedAt.toISOString(),
    workstreamCount: byOwner.get(item.userId) ?? 0,
  }));
}
