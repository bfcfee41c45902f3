// Onboarding and the workstreams bootstrap (what each member has from their first visit on). A
// member starts each organization in onboarding with the `onboardingDirectAgents`; completing
// onboarding (an explicit action, or the chief's complete_onboarding tool) provisions the
// `completedDirectAgents` and the `coreTypesAfterOnboarding`. Every step is idempotent
// (deterministic ids), and bootstrapMember provisions whatever the member's state calls for on
// each load, so a crash half-way through, or a host adding an agent to the config later, heals
// itself on the next visit.
import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { memberOnboarding, type OnboardingState, workstreams } from "@/db/schema";
import { config } from "@/lib/config";
import { publishLive } from "@/lib/stream/fanout-instance";
import { type CreateWorkstreamInput, createWorkstream, plannedRow } from "./create";
import type { WorkstreamSummary } from "./types";

type Member = { userId: string; organizationId: string };

export async function getOnboardingState({
  userId,
  organizationId,
}: Member): Promise<OnboardingState> {
  const db = await getDb();
  const [row] = await db
    .select({ state: memberOnboarding.state })
    .from(memberOnboarding)
    .where(
      and(eq(memberOnboarding.organizationId, organizationId), eq(memberOnboarding.userId, userId)),
    )
    .limit(1);
  return row?.state ?? "onboarding";
}

/**
 * Whether the member is still onboarding, inside the caller's transaction (a turn's close marks
 * its post-turn event so). A member without a row has not started onboarding here.
 */
export async function stillOnboarding(
  tx: Tx,
  { userId, organizationId }: Member,
): Promise<boolean> {
  const [row] = await tx
    .select({ completedAt: memberOnboarding.completedAt })
    .from(memberOnboarding)
    .where(
      and(eq(memberOnboarding.organizationId, organizationId), eq(memberOnboarding.userId, userId)),
    )
    .limit(1);
  return row !== undefined && row.completedAt === null;
}

/** The workstreams a member in `state` should have. */
export function bootstrapPlan(state: OnboardingState): CreateWorkstreamInput[] {
  const { bootstrap } = config.workstreams;
  const agents: readonly string[] =
    state === "completed"
      ? [...new Set([...bootstrap.onboardingDirectAgents, ...bootstrap.completedDirectAgents])]
      : bootstrap.onboardingDirectAgents;
  const coreTypes: readonly string[] =
    state === "completed" ? bootstrap.coreTypesAfterOnboarding : [];
  return [
    ...agents.map((agentId) => ({ mode: "direct" as const, agentId })),
    ...coreTypes.map((coreType) => ({ mode: "group" as const, core: true as const, coreType })),
  ];
}

/** Creates the planned workstreams that are missing; returns the ones it created. */
async function provision(member: Member, state: OnboardingState): Promise<WorkstreamSummary[]> {
  const plan = bootstrapPlan(state);
  const wanted = plan.map((input) => ({ input, id: plannedRow({ ...member, ...input }).id }));
  const db = await getDb();
  const existing = await db
    .select({ id: workstreams.id })
    .from(workstreams)
    .where(
      inArray(
        workstreams.id,
        wanted.map((item) => item.id),
      ),
    );
  const have = new Set(existing.map((row) => row.id));
  const created: WorkstreamSummary[] = [];
  for (const { input, id } of wanted) {
    if (have.has(id)) continue;
    const result = await createWorkstream({ ...member, ...input });
    if (result.created) created.push(result.workstream);
  }
  return created;
}

/** Starts the member's onboarding if it has not started, and provisions what their state needs. */
export async function bootstrapMember(member: Member): Promise<OnboardingState> {
  const db = await getDb();
  await db
    .insert(memberOnboarding)
    .values({ userId: member.userId, organizationId: member.organizationId })
    .onConflictDoNothing();
  const state = await getOnboardingState(member);
  await provision(member, state);
  return state;
}

export type OnboardingResult = {
  state: "completed";
  /** False when onboarding was already complete. */
  changed: boolean;
  provisioned: WorkstreamSummary[];
};

export async function completeOnboarding(member: Member): Promise<OnboardingResult> {
  const db = await getDb();
  const inserted = await db
    .insert(memberOnboarding)
    .values({ ...member, state: "completed", completedAt: new Date() })
    .onConflictDoNothing()
    .returning({ userId: memberOnboarding.userId });
  const updated = await db
    .update(memberOnboarding)
    .set({ state: "completed", completedAt: new Date() })
    .where(
      and(
        eq(memberOnboarding.organizationId, member.organizationId),
        eq(memberOnboarding.userId, member.userId),
        eq(memberOnboarding.state, "onboarding"),
      ),
    )
    .returning({ userId: memberOnboarding.userId });
  const provisioned = await provision(member, "completed");
  const changed = inserted.length + updated.length + provisioned.length > 0;
  if (changed) {
    await publishLive({
      organizationId: member.organizationId,
      userId: member.userId,
      event: { type: "onboarding", state: "completed" },
    });
  }
  return { state: "completed", changed, provisioned };
}
