// The approvals of suspended turns and the audit of decisions: recording what a turn asks,
// answering one approval by compare-and-set, and reading them back (the chat's 409, the admin
// console's audit). The turn engine calls these inside its own transactions, and answering an
// approval (./answer.ts) inside the one that changes the turn too.
import "server-only";
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import { type Db, getDb, type Tx, transaction } from "@/db/client";
import {
  type ApprovalDecision,
  type ApprovalState,
  approvalDecisions,
  approvals,
  type DecisionSource,
  type ToolPolicyRule,
  toolGrants,
  toolPolicies,
  workstreams,
} from "@/db/schema";
import type { Grant, ToolPolicy } from "@/lib/agents/authority";
import { enqueueJobEvent } from "@/lib/jobs/enqueue";
import { approvalsDue } from "@/lib/jobs/events";
import { AppError } from "@/lib/kernel/errors";
import { argsHash } from "./hash";

/** A tool call the turn's answer ended on, waiting for the owner. */
export type RequestedApproval = {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Its place among the message's tool calls: they are asked in this order. */
  position: number;
};

export type ApprovalRow = typeof approvals.$inferSelect;

/**
 * Records the approvals a turn is about to wait for, with the outbox event that expires them at
 * `expiresAt` (delayed by its own time), in one transaction. Written before the turn is suspended:
 * if the suspension never happens (the turn was stopped or reaped meanwhile), the rows wait for a
 * turn that is not suspended, and answering one is refused.
 */
export async function recordApprovals({
  turn,
  requested,
  expiresAt,
}: {
  turn: { id: string; workstreamId: string; organizationId: string };
  requested: RequestedApproval[];
  expiresAt: Date;
}): Promise<void> {
  if (requested.length === 0) return;
  await transaction(async (tx) => {
    const asked = await tx
      .insert(approvals)
      .values(
        requested.map((approval) => ({
          id: approval.approvalId,
          turnId: turn.id,
          workstreamId: turn.workstreamId,
          organizationId: turn.organizationId,
          toolCallId: approval.toolCallId,
          toolName: approval.toolName,
          argsHash: argsHash(approval.input),
          position: approval.position,
          expiresAt,
        })),
      )
      .onConflictDoNothing({ target: approvals.id })
      .returning({ id: approvals.id });
    // A repeat (the same approvals recorded again) queues no second expiry.
    if (asked.length === 0) return;
    await enqueueJobEvent(
      tx,
      approvalsDue,
      {
        turnId: turn.id,
        workstreamId: turn.workstreamId,
        organizationId: turn.organizationId,
        approvalIds: requested.map((approval) => approval.approvalId),
      },
      { at: expiresAt },
    );
  });
}

/** The approval the owner is asked now: the turn's first unanswered one, in call order. */
export async function firstPendingApproval(
  turnId: string,
): Promise<Pick<ApprovalRow, "id" | "toolName" | "toolCallId"> | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: approvals.id, toolName: approvals.toolName, toolCallId: approvals.toolCallId })
    .from(approvals)
    .where(and(eq(approvals.turnId, turnId), eq(approvals.state, "pending")))
    .orderBy(asc(approvals.position))
    .limit(1);
  return row ?? null;
}

/** The turn's approvals in call order, for answering them. */
export async function turnApprovals(db: Db | Tx, turnId: string): Promise<ApprovalRow[]> {
  return db
    .select()
    .from(approvals)
    .where(eq(approvals.turnId, turnId))
    .orderBy(asc(approvals.position));
}

/**
 * Answers pending approvals by compare-and-set: only rows still pending change, and each change
 * is audited in the same transaction. Returns the rows that changed.
 */
export async function decideApprovals(
  tx: Tx,
  {
    rows,
    state,
    reason,
    decidedBy,
    source,
  }: {
    rows: ApprovalRow[];
    state: Extract<ApprovalState, "approved" | "denied" | "expired">;
    reason: string | null;
    decidedBy: string | null;
    source: DecisionSource;
  },
): Promise<ApprovalRow[]> {
  const decided: ApprovalRow[] = [];
  for (const row of rows) {
    const [changed] = await tx
      .update(approvals)
      .set({ state, reason, decidedBy, decidedAt: sql`now()` })
      .where(and(eq(approvals.id, row.id), eq(approvals.state, "pending")))
      .returning();
    if (!changed) continue;
    decided.push(changed);
    await tx.insert(approvalDecisions).values(
      auditRow({
        organizationId: changed.organizationId,
        workstreamId: changed.workstreamId,
        turnId: changed.turnId,
        approvalId: changed.id,
        toolName: changed.toolName,
        toolCallId: changed.toolCallId,
        argsHash: changed.argsHash,
        decision: state === "approved" ? "approved" : "denied",
        source,
        reason,
        decidedBy,
      }),
    );
  }
  return decided;
}

/** Pending approvals of a turn that ends without them (Stop): cancelled, not decided. */
export async function cancelApprovals(tx: Tx, turnId: string): Promise<void> {
  await tx
    .update(approvals)
    .set({ state: "cancelled", decidedAt: sql`now()` })
    .where(and(eq(approvals.turnId, turnId), eq(approvals.state, "pending")));
}

type AuditInput = {
  organizationId: string;
  workstreamId: string;
  turnId: string;
  approvalId: string | null;
  toolName: string;
  toolCallId: string;
  argsHash: string;
  decision: ApprovalDecision;
  source: DecisionSource;
  reason: string | null;
  decidedBy: string | null;
};

function auditRow(input: AuditInput): typeof approvalDecisions.$inferInsert {
  return { id: `dec_${crypto.randomUUID().replaceAll("-", "")}`, ...input };
}

/**
 * A decision nobody was asked about (a guard refusing a call): recorded on its own. The hash is
 * taken here, so the caller hands over the arguments and nothing of them is kept.
 */
export async function recordDecision(
  input: Omit<AuditInput, "argsHash" | "approvalId"> & { input: unknown },
): Promise<void> {
  const { input: args, ...rest } = input;
  const db = await getDb();
  await db
    .insert(approvalDecisions)
    .values(auditRow({ ...rest, approvalId: null, argsHash: argsHash(args) }));
}

/** An audit entry as the admin console shows it: metadata, never arguments or a member's words. */
export type DecisionView = {
  id: string;
  turnId: string;
  toolName: string;
  argsHash: string;
  decision: ApprovalDecision;
  source: DecisionSource;
  /** Whether the person who decided gave a reason (its text stays with the member). */
  reasonGiven: boolean;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedAt: string;
};

const decisionColumns = {
  id: approvalDecisions.id,
  workstreamId: approvalDecisions.workstreamId,
  turnId: approvalDecisions.turnId,
  toolName: approvalDecisions.toolName,
  argsHash: approvalDecisions.argsHash,
  decision: approvalDecisions.decision,
  source: approvalDecisions.source,
  reason: approvalDecisions.reason,
  decidedBy: approvalDecisions.decidedBy,
  decidedByName: sql<
    string | null
  >`(select "name" from "user" where "id" = ${approvalDecisions.decidedBy})`,
  decidedAt: approvalDecisions.decidedAt,
};

type DecisionRow = {
  [K in keyof typeof decisionColumns]: K extends "decidedByName"
    ? string | null
    : (typeof approvalDecisions.$inferSelect)[Exclude<K, "decidedByName">];
};

function toView({
  reason,
  decidedAt,
  workstreamId: _workstreamId,
  ...row
}: DecisionRow): DecisionView {
  return { ...row, reasonGiven: Boolean(reason), decidedAt: decidedAt.toISOString() };
}

/**
 * The audit of one workstream, newest first: only its decisions in the organization (the caller
 * answers 404 for a workstream outside it, lib/workstreams/queries.ts).
 */
export async function listDecisions({
  organizationId,
  workstreamId,
  limit = 100,
}: {
  organizationId: string;
  workstreamId: string;
  limit?: number;
}): Promise<DecisionView[]> {
  const db = await getDb();
  const rows = await db
    .select(decisionColumns)
    .from(approvalDecisions)
    .where(
      and(
        eq(approvalDecisions.workstreamId, workstreamId),
        eq(approvalDecisions.organizationId, organizationId),
      ),
    )
    .orderBy(desc(approvalDecisions.decidedAt), desc(approvalDecisions.id))
    .limit(limit);
  return rows.map(toView);
}

/** The organization's workstreams with audited decisions, each with its latest ones. */
export type WorkstreamAudit = {
  workstreamId: string;
  title: string;
  ownerName: string | null;
  decisions: DecisionView[];
};

export async function listOrganizationAudit({
  organizationId,
  limit = 200,
}: {
  organizationId: string;
  limit?: number;
}): Promise<WorkstreamAudit[]> {
  const db = await getDb();
  const rows = await db
    .select({
      ...decisionColumns,
      title: workstreams.title,
      ownerName: sql<
        string | null
      >`(select "name" from "user" where "id" = ${workstreams.ownerId})`,
    })
    .from(approvalDecisions)
    .innerJoin(workstreams, eq(workstreams.id, approvalDecisions.workstreamId))
    .where(
      and(
        eq(approvalDecisions.organizationId, organizationId),
        eq(workstreams.organizationId, organizationId),
      ),
    )
    .orderBy(desc(approvalDecisions.decidedAt), desc(approvalDecisions.id))
    .limit(limit);
  const byWorkstream = new Map<string, WorkstreamAudit>();
  for (const { title, ownerName, ...row } of rows) {
    let audit = byWorkstream.get(row.workstreamId);
    if (!audit) {
      audit = { workstreamId: row.workstreamId, title, ownerName, decisions: [] };
      byWorkstream.set(row.workstreamId, audit);
    }
    audit.decisions.push(toView(row));
  }
  return [...byWorkstream.values()];
}

// ---------------------------------------------------------------------------------------------
// The authority over tool calls: remembered grants and the organization's tool policy.

export type GrantView = {
  id: string;
  toolName: string;
  approvalKey: string;
  createdAt: string;
  expiresAt: string;
};

/** A workstream's grants that have not expired (what the authority stack consults). */
export async function activeGrants(workstreamId: string): Promise<Grant[]> {
  const db = await getDb();
  return db
    .select({
      id: toolGrants.id,
      toolName: toolGrants.toolName,
      approvalKey: toolGrants.approvalKey,
      expiresAt: toolGrants.expiresAt,
    })
    .from(toolGrants)
    .where(and(eq(toolGrants.workstreamId, workstreamId), gt(toolGrants.expiresAt, sql`now()`)));
}

/** The owner's view of a workstream's grants, newest first (expired ones are gone from it). */
export async function listGrants(workstreamId: string): Promise<GrantView[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(toolGrants)
    .where(and(eq(toolGrants.workstreamId, workstreamId), gt(toolGrants.expiresAt, sql`now()`)))
    .orderBy(desc(toolGrants.createdAt), desc(toolGrants.id));
  return rows.map((row) => ({
    id: row.id,
    toolName: row.toolName,
    approvalKey: row.approvalKey,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  }));
}

/** Remembers an approval: calls of `toolName` with `approvalKey` run without asking until then. */
export async function createGrant(
  tx: Tx,
  grant: {
    organizationId: string;
    workstreamId: string;
    toolName: string;
    approvalKey: string;
    createdBy: string;
    days: number;
  },
): Promise<string> {
  const id = `grant_${crypto.randomUUID().replaceAll("-", "")}`;
  const { days, ...fields } = grant;
  await tx.insert(toolGrants).values({
    id,
    ...fields,
    expiresAt: sql`now() + ${`${days} days`}::interval`,
  });
  return id;
}

/** Forgets a grant of the workstream; another workstream's (or an unknown) grant is a 404. */
export async function revokeGrant({
  workstreamId,
  grantId,
}: {
  workstreamId: string;
  grantId: string;
}): Promise<{ id: string }> {
  const db = await getDb();
  const [row] = await db
    .delete(toolGrants)
    .where(and(eq(toolGrants.id, grantId), eq(toolGrants.workstreamId, workstreamId)))
    .returning({ id: toolGrants.id });
  if (!row) throw new AppError("not_found:grant");
  return row;
}

/** The organization's tool policy: a rule per tool that has one (the rest are allowed). */
export async function readToolPolicy(organizationId: string): Promise<ToolPolicy> {
  const db = await getDb();
  const rows = await db
    .select({ toolName: toolPolicies.toolName, rule: toolPolicies.rule })
    .from(toolPolicies)
    .where(eq(toolPolicies.organizationId, organizationId));
  return Object.fromEntries(rows.map((row) => [row.toolName, row.rule]));
}

/**
 * Replaces the organization's tool policy in one transaction: the rules given (an `allowed`
 * rule is the default and is not stored), every other tool back to allowed.
 */
export async function writeToolPolicy({
  organizationId,
  rules,
  updatedBy,
}: {
  organizationId: string;
  rules: Record<string, ToolPolicyRule>;
  updatedBy: string;
}): Promise<ToolPolicy> {
  const kept = Object.entries(rules).filter(([, rule]) => rule !== "allowed");
  await transaction(async (tx) => {
    await tx.delete(toolPolicies).where(eq(toolPolicies.organizationId, organizationId));
    if (kept.length > 0) {
      await tx
        .insert(toolPolicies)
        .values(kept.map(([toolName, rule]) => ({ organizationId, toolName, rule, updatedBy })));
    }
  });
  return Object.fromEntries(kept);
}
