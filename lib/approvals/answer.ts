// Answering a suspended turn's approvals: the owner's Approve or Deny (from any tab or server),
// or their expiry. One transaction, under the workstream's log lock, compare-and-sets the pending
// approval, audits the decision, has the engine write it into the kept answer (the persisted
// message is what the turn goes on from: nothing comes from the client but the decision) and logs
// it for every open tab. Once the turn's last approval is answered, the same transaction has the
// engine take the turn back (active, with a new run id, this process's lease and the busy flag)
// and the turn goes on here. The engine is reached through ./continuation.ts.
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { transaction } from "@/db/client";
import { turns, workstreams } from "@/db/schema";
import { approvalKey } from "@/lib/agents/approval-policy";
import { AppError } from "@/lib/kernel/errors";
import { appendEventsLocked } from "@/lib/stream/event-log";
import { getFanout, publishLive } from "@/lib/stream/fanout-instance";
import { type LoggedChunk, type LoggedEvent, statusChunk } from "@/lib/stream/types";
import { type AnsweredTurn, type TurnContinuation, turnContinuation } from "./continuation";
import { type ApprovalRow, createGrant, decideApprovals, turnApprovals } from "./store";

/** What the model is told of an approval nobody answered in time. */
export const EXPIRED_REASON = "Nobody answered the approval request in time, so it expired.";

export type AnswerResult = {
  turnId: string;
  approvalId: string;
  state: "approved" | "denied";
  /** The turn went on (every approval answered); else the next one to answer. */
  continued: boolean;
  next: { approvalId: string; toolName: string } | null;
};

type Decided = {
  turn: AnsweredTurn;
  decided: ApprovalRow[];
  remaining: ApprovalRow[];
  events: LoggedEvent[];
  /** Set when the turn was taken back to go on: its new run id. */
  serverRunId: string | null;
};

/**
 * The owner answers one approval. Refusals write nothing: 404 for an approval that is not this
 * owner's (or not of this turn), 409 `conflict:approval_answered` for one answered already or
 * whose turn ended, 409 `conflict:approval_order` while an earlier one of the turn waits.
 */
export async function answerApproval({
  viewer,
  workstreamId,
  turnId,
  approvalId,
  approved,
  reason,
  grantDays = null,
}: {
  viewer: { userId: string; organizationId: string };
  workstreamId: string;
  turnId: string;
  approvalId: string;
  approved: boolean;
  reason: string | null;
  /** With an approval: remember it for calls like this one for so many days (a grant). */
  grantDays?: number | null;
}): Promise<AnswerResult> {
  const state = approved ? "approved" : "denied";
  const engine = turnContinuation();
  // Held from before the commit that may make this process the turn's owner until its run is
  // registered (continueTurn), so the reaper never takes it for one whose close failed.
  return engine.holding(turnId, async () => {
    const result = await decide(engine, {
      workstreamId,
      turnId,
      owner: viewer,
      pick: (turn, rows) => {
        const target = rows.find((row) => row.id === approvalId);
        if (!target) throw new AppError("not_found:approval");
        if (target.state !== "pending" || turn.state !== "suspended") {
          throw new AppError("conflict:approval_answered", {
            details: { state: target.state === "pending" ? turn.state : target.state },
          });
        }
        const first = rows.find((row) => row.state === "pending");
        if (first && first.id !== target.id) {
          throw new AppError("conflict:approval_order", { details: { approvalId: first.id } });
        }
        return [target];
      },
      state,
      reason,
      decidedBy: viewer.userId,
      source: "user",
      grant: approved && grantDays ? { days: grantDays, createdBy: viewer.userId } : null,
    });
    // Two answers at once: the second found it answered by the first.
    if (!result || result.decided.length === 0) {
      throw new AppError("conflict:approval_answered", { details: { state: "answered" } });
    }
    await announce(engine, result, workstreamId);
    const next = result.remaining[0];
    return {
      turnId,
      approvalId,
      state,
      continued: result.serverRunId !== null,
      next: next ? { approvalId: next.id, toolName: next.toolName } : null,
    };
  });
}

/**
 * The expiry: every one of `approvalIds` still pending is answered "no" (source timeout, the
 * model is told it expired) and the turn goes on. Approvals answered meanwhile, or a turn that
 * ended, make it do nothing, so a late or repeated run is harmless.
 */
export async function expireApprovals({
  turnId,
  workstreamId,
  approvalIds,
}: {
  turnId: string;
  workstreamId: string;
  approvalIds: string[];
}): Promise<{ expired: number; continued: boolean }> {
  const engine = turnContinuation();
  return engine.holding(turnId, async () => {
    const result = await decide(engine, {
      workstreamId,
      turnId,
      owner: null,
      pick: (turn, rows) =>
        turn.state === "suspended"
          ? rows.filter((row) => row.state === "pending" && approvalIds.includes(row.id))
          : [],
      state: "expired",
      reason: EXPIRED_REASON,
      decidedBy: null,
      source: "timeout",
    });
    if (!result || result.decided.length === 0) return { expired: 0, continued: false };
    await announce(engine, result, workstreamId);
    return { expired: result.decided.length, continued: result.serverRunId !== null };
  });
}

async function decide(
  engine: TurnContinuation,
  {
    workstreamId,
    turnId,
    owner,
    pick,
    state,
    reason,
    decidedBy,
    source,
    grant = null,
  }: {
    workstreamId: string;
    turnId: string;
    /** The answering member: the turn must be in a workstream they own. Null for the expiry. */
    owner: { userId: string; organizationId: string } | null;
    pick: (turn: AnsweredTurn, rows: ApprovalRow[]) => ApprovalRow[];
    state: "approved" | "denied" | "expired";
    reason: string | null;
    decidedBy: string | null;
    source: "user" | "timeout";
    /** Remember the approval as a grant of the tool for calls with the same key. */
    grant?: { days: number; createdBy: string } | null;
  },
): Promise<Decided | null> {
  return transaction(async (tx) => {
    // Answers, stops and the log's offsets of this workstream take turns.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${workstreamId}))`);
    const [turn] = await tx
      .select({ turn: turns, ownerId: workstreams.ownerId, orgId: workstreams.organizationId })
      .from(turns)
      .innerJoin(workstreams, eq(workstreams.id, turns.workstreamId))
      .where(and(eq(turns.id, turnId), eq(turns.workstreamId, workstreamId)))
      .limit(1);
    const owned =
      turn && (!owner || (turn.ownerId === owner.userId && turn.orgId === owner.organizationId));
    if (!turn || !owned) {
      if (owner) throw new AppError("not_found:approval");
      return null;
    }
    const ref: AnsweredTurn = { ...turn.turn, ownerId: turn.ownerId };
    const rows = await turnApprovals(tx, turnId);
    const chosen = pick(ref, rows);
    if (chosen.length === 0) return null;
    const decided = await decideApprovals(tx, { rows: chosen, state, reason, decidedBy, source });
    if (decided.length === 0) return null;
    const answeredIds = new Set(decided.map((row) => row.id));
    const remaining = rows.filter((row) => row.state === "pending" && !answeredIds.has(row.id));
    const inputs = await engine.recordAnswers(tx, ref, decided);
    if (grant) {
      for (const row of decided) {
        await createGrant(tx, {
          organizationId: ref.organizationId,
          workstreamId,
          toolName: row.toolName,
          // The key comes from the call as it was kept, not from anything the client sent.
          approvalKey: approvalKey(row.toolName, inputs.get(row.id)),
          createdBy: grant.createdBy,
          days: grant.days,
        });
      }
    }
    const chunks: LoggedChunk[] = decided.map((row) => ({
      type: "tool-approval-response",
      approvalId: row.id,
      approved: row.state === "approved",
      ...(row.reason ? { reason: row.reason } : {}),
    }));
    const serverRunId = remaining.length === 0 ? crypto.randomUUID() : null;
    if (serverRunId) chunks.push(statusChunk(turnId, { state: "acknowledged" }));
    const events = await appendEventsLocked({ workstreamId, turnId, chunks, tx });
    if (serverRunId) await engine.takeBack(tx, ref, serverRunId, events[0]?.offset ?? null);
    return { turn: ref, decided, remaining, events, serverRunId };
  });
}

/** After commit: the decision reaches every tab, and a turn taken back goes on here. */
async function announce(
  engine: TurnContinuation,
  result: Decided,
  workstreamId: string,
): Promise<void> {
  const { turn, events, serverRunId } = result;
  await (await getFanout()).publish(events).catch((error: unknown) => {
    // Committed: followers catch up from the log on their next poll.
    console.error("[approvals] announcing an answer failed:", error);
  });
  await publishLive({
    organizationId: turn.organizationId,
    userId: turn.ownerId,
    event: { type: "approval", workstreamId, turnId: turn.id, continued: serverRunId !== null },
  }).catch((error: unknown) => console.error("[approvals] live update failed:", error));
  if (serverRunId) {
    const lastOffset = events.at(-1)?.offset ?? 0;
    engine.continueTurn({ turnId: turn.id, workstreamId, serverRunId, lastOffset });
  }
}
