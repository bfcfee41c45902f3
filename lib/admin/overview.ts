// The admin console's headline numbers for an organization: workstreams, running turns, members
// and all-time usage (with the number of turns whose usage is unknown).
import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { member, turns, workstreamHasRunningTurn, workstreams } from "@/db/schema";
import { withoutUsageSql } from "./workstreams";

export type OrganizationOverview = {
  workstreams: number;
  running: number;
  members: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Turns the model answered without reporting usage: left out of the sums above. */
  turnsWithoutUsage: number;
};

export async function organizationOverview({
  organizationId,
}: {
  organizationId: string;
}): Promise<OrganizationOverview> {
  const db = await getDb();
  const [streams] = await db
    .select({
      total: sql<number>`count(*)`,
      running: sql<number>`count(*) filter (where ${workstreamHasRunningTurn})`,
    })
    .from(workstreams)
    .where(eq(workstreams.organizationId, organizationId));
  const [usage] = await db
    .select({
      inputTokens: sql<number>`coalesce(sum((${turns.usage} ->> 'inputTokens')::numeric), 0)`,
      outputTokens: sql<number>`coalesce(sum((${turns.usage} ->> 'outputTokens')::numeric), 0)`,
      costUsd: sql<number>`coalesce(sum(${turns.costUsd}), 0)`,
      withoutUsage: sql<number>`count(*) filter (where ${withoutUsageSql('"turns"')})`,
    })
    .from(turns)
    // Through workstreams, whose organization index (and turns' workstream index) serve it.
    .innerJoin(workstreams, eq(workstreams.id, turns.workstreamId))
    .where(eq(workstreams.organizationId, organizationId));
  const [members] = await db
    .select({ total: sql<number>`count(*)` })
    .from(member)
    .where(eq(member.organizationId, organizationId));
  return {
    workstreams: Number(streams?.total ?? 0),
    running: Number(streams?.running ?? 0),
    members: Number(members?.total ?? 0),
    inputTokens: Number(usage?.inputTokens ?? 0),
    outputTokens: Number(usage?.outputTokens ?? 0),
    costUsd: Number(usage?.costUsd ?? 0),
    turnsWithoutUsage: Number(usage?.withoutUsage ?? 0),
  };
}
