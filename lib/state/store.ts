// The only writer of workstream_states.state, .plan, .last_evictions and .version (a compaction
// merges its delta through mergeDeltaInTransaction, inside its own transaction). A write reads
// the row together with the owned workstream (one statement), merges in JS, and writes back with
// a compare-and-set on `version` (one statement), so two writers never lose each other's change:
// the loser re-reads and merges again, or, for a member editing what they last loaded, is told
// the state moved on. Every write tells the owner's open tabs (publishContextChange).
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { workstreamStates, workstreams } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";
import { isStorableText } from "@/lib/text/storable";
import { type MergeMode, mergeState, type StateItemRef } from "./merge";
import { nextPlan } from "./plan";
import { publishContextChange } from "./publish";
import {
  type Eviction,
  type ExecutionPlan,
  emptyState,
  executionPlanSchema,
  type PlanUpdate,
  STATE_LISTS,
  type StateListName,
  type WorkstreamState,
  type WorkstreamStateDelta,
  workstreamStateSchema,
} from "./schema";

/** Whose workstream: it must be owned by `ownerId` in `organizationId`, or it is not found. */
export type StateTarget = { workstreamId: string; organizationId: string; ownerId: string };

/** A lost compare-and-set in evict mode re-reads and merges again, this many times at most. */
const MAX_ATTEMPTS = 4;

const ID_PREFIX: Record<StateListName | "plan" | "step", string> = {
  currentPlan: "cp",
  activeConstraints: "con",
  keyDecisions: "dec",
  tasks: "task",
  openQuestions: "q",
  risks: "risk",
  artifacts: "art",
  agentContributions: "contrib",
  plan: "plan",
  step: "step",
};

/** Short ids the model can copy back: a prefix naming the list and 8 random characters. */
function idMaker(taken: Iterable<string>) {
  const used = new Set(taken);
  return (kind: keyof typeof ID_PREFIX): string => {
    for (;;) {
      const id = `${ID_PREFIX[kind]}_${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
}

type Loaded = {
  exists: boolean;
  version: number;
  state: WorkstreamState;
  plan: ExecutionPlan | null;
};

/** The workstream's state row (or an empty one), if the owner may edit it; else the error. */
async function load(target: StateTarget): Promise<Loaded> {
  const db = await getDb();
  const [row] = await db
    .select({
      status: workstreams.status,
      exists: sql<boolean>`${workstreamStates.workstreamId} is not null`,
      version: workstreamStates.version,
      state: workstreamStates.state,
      plan: workstreamStates.plan,
    })
    .from(workstreams)
    .leftJoin(workstreamStates, eq(workstreamStates.workstreamId, workstreams.id))
    .where(
      and(
        eq(workstreams.id, target.workstreamId),
        eq(workstreams.organizationId, target.organizationId),
        eq(workstreams.ownerId, target.ownerId),
      ),
    )
    .limit(1);
  if (!row) throw new AppError("not_found:workstream");
  if (row.status === "archived") throw new AppError("conflict:archived");
  return {
    exists: Boolean(row.exists),
    version: row.version ?? 0,
    state: workstreamStateSchema.parse(row.state ?? {}) as WorkstreamState,
    plan: row.plan ? executionPlanSchema.parse(row.plan) : null,
  };
}

type Write = { state?: WorkstreamState; plan?: ExecutionPlan; lastEvictions?: Eviction[] };

/** Writes if the row is still at `loaded.version`; the new version, or null when it moved on. */
async function compareAndSet(
  target: StateTarget,
  loaded: Loaded,
  write: Write,
): Promise<number | null> {
  const db = await getDb();
  const version = loaded.version + 1;
  if (!loaded.exists) {
    const inserted = await db
      .insert(workstreamStates)
      .values({
        workstreamId: target.workstreamId,
        organizationId: target.organizationId,
        state: write.state ?? loaded.state,
        plan: write.plan ?? loaded.plan,
        lastEvictions: write.lastEvictions ?? [],
        version,
      })
      .onConflictDoNothing()
      .returning({ version: workstreamStates.version });
    return inserted[0]?.version ?? null;
  }
  const updated = await db
    .update(workstreamStates)
    .set({ ...write, version, updatedAt: new Date() })
    .where(
      and(
        eq(workstreamStates.workstreamId, target.workstreamId),
        eq(workstreamStates.version, loaded.version),
      ),
    )
    .returning({ version: workstreamStates.version });
  return updated[0]?.version ?? null;
}

/** Postgres cannot store U+0000 or a lone surrogate; a caller that did not check is refused. */
function assertStorable(value: unknown): void {
  if (typeof value === "string") {
    if (!isStorableText(value)) throw new AppError("bad_request:text");
  } else if (Array.isArray(value)) {
    for (const item of value) assertStorable(item);
  } else if (value && typeof value === "object") {
    for (const item of Object.values(value)) assertStorable(item);
  }
}

export type StateWriteResult = {
  version: number;
  state: WorkstreamState;
  lastEvictions: Eviction[];
  added: StateItemRef[];
  changed: StateListName[];
};

/**
 * Merges `delta` into the workstream's state. "evict" (the agent, compaction) keeps each list
 * within its limit by its eviction rule; "refuse" (the member's own edit) answers 422
 * `limit:state` instead and, given `expectedVersion`, 409 `conflict:state_version` when the state
 * changed since the member loaded it. Nothing is written when it throws.
 */
export async function applyStateDelta({
  delta,
  mode,
  expectedVersion,
  ...target
}: StateTarget & {
  delta: WorkstreamStateDelta;
  mode: MergeMode;
  expectedVersion?: number;
}): Promise<StateWriteResult> {
  assertStorable(delta);
  for (let attempt = 1; ; attempt++) {
    const loaded = await load(target);
    if (expectedVersion !== undefined && loaded.version !== expectedVersion) {
      throw new AppError("conflict:state_version", { details: { version: loaded.version } });
    }
    const taken = STATE_LISTS.flatMap((list) => loaded.state[list].map((item) => item.id));
    const merged = mergeState(loaded.state, delta, {
      mode,
      now: new Date().toISOString(),
      newId: idMaker(taken),
    });
    if (merged.changed.length === 0) {
      return {
        version: loaded.version,
        state: loaded.state,
        lastEvictions: [],
        added: [],
        changed: [],
      };
    }
    const version = await compareAndSet(target, loaded, {
      state: merged.state,
      lastEvictions: merged.evicted,
    });
    if (version !== null) {
      await publishContextChange({ ...target, reason: "state" });
      return {
        version,
        state: merged.state,
        lastEvictions: merged.evicted,
        added: merged.added,
        changed: merged.changed,
      };
    }
    // Someone else wrote first. A member's edit against a version they saw is now stale.
    if (expectedVersion !== undefined || attempt >= MAX_ATTEMPTS) {
      throw new AppError("conflict:state_version");
    }
  }
}

/**
 * Merges a compaction's delta inside the compaction's own transaction (lib/compaction), so the
 * state changes exactly when the compaction is recorded. It evicts by the lists' rules and
 * locks the state row, so a concurrent writer's compare-and-set fails and merges again after.
 * The caller announces the change once the transaction has committed.
 */
export async function mergeDeltaInTransaction(
  tx: Tx,
  {
    workstreamId,
    organizationId,
    delta,
  }: { workstreamId: string; organizationId: string; delta: WorkstreamStateDelta },
): Promise<Pick<StateWriteResult, "added" | "lastEvictions" | "changed">> {
  await tx.insert(workstreamStates).values({ workstreamId, organizationId }).onConflictDoNothing();
  const [row] = await tx
    .select({ state: workstreamStates.state })
    .from(workstreamStates)
    .where(eq(workstreamStates.workstreamId, workstreamId))
    .for("update");
  const state = workstreamStateSchema.parse(row?.state ?? {}) as WorkstreamState;
  const taken = STATE_LISTS.flatMap((list) => state[list].map((item) => item.id));
  const merged = mergeState(state, delta, {
    mode: "evict",
    now: new Date().toISOString(),
    newId: idMaker(taken),
  });
  if (merged.changed.length > 0) {
    await tx
      .update(workstreamStates)
      .set({
        state: merged.state,
        lastEvictions: merged.evicted,
        version: sql`${workstreamStates.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(workstreamStates.workstreamId, workstreamId));
  }
  return { added: merged.added, lastEvictions: merged.evicted, changed: merged.changed };
}

/** Revises the active plan, or starts one (see nextPlan); the agent's update_plan tool. */
export async function writePlan({
  update,
  ...target
}: StateTarget & { update: PlanUpdate }): Promise<{ version: number; plan: ExecutionPlan }> {
  assertStorable(update);
  for (let attempt = 1; ; attempt++) {
    const loaded = await load(target);
    const plan = nextPlan(loaded.plan, update, {
      now: new Date().toISOString(),
      newId: idMaker([...(loaded.plan?.steps.map((step) => step.id) ?? [])]),
    });
    const version = await compareAndSet(target, loaded, { plan });
    if (version !== null) {
      await publishContextChange({ ...target, reason: "plan" });
      return { version, plan };
    }
    if (attempt >= MAX_ATTEMPTS) throw new AppError("conflict:state_version");
  }
}

/**
 * The workstream's state and active plan as a turn's context shows them: an empty state when it
 * has none yet (or its stored lists no longer parse), no plan when there is none.
 */
export async function readStateAndPlan(
  workstreamId: string,
): Promise<{ state: WorkstreamState; plan: ExecutionPlan | null }> {
  const db = await getDb();
  const [row] = await db
    .select({ state: workstreamStates.state, plan: workstreamStates.plan })
    .from(workstreamStates)
    .where(eq(workstreamStates.workstreamId, workstreamId))
    .limit(1);
  const state = workstreamStateSchema.safeParse(row?.state ?? {});
  const plan = row?.plan ? executionPlanSchema.safeParse(row.plan) : null;
  return {
    state: state.success ? state.data : emptyState(),
    plan: plan?.success ? plan.data : null,
  };
}
