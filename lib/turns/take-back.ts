// The engine's side of an answered approval (see lib/approvals/continuation.ts): the decisions
// written into the suspended turn's kept answer, the turn taken back to go on, and its
// continuation. lib/approvals calls these inside its answer's transaction, through the port the
// composition root fills with `approvalContinuation`.
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { messages, turns, workstreams } from "@/db/schema";
import type { AnsweredTurn, TurnContinuation } from "@/lib/approvals/continuation";
import type { ApprovalRow } from "@/lib/approvals/store";
import { config } from "@/lib/config";
import { PROCESS_ID } from "@/lib/kernel/process-id";
import { continueTurn } from "./continue-turn";
import { runRegistry } from "./run-registry";

/**
 * The decisions go into the kept answer, as the AI SDK's `approval-responded` parts. Returns the
 * calls' inputs by approval id, as they were kept.
 */
async function recordInMessage(
  tx: Tx,
  turn: AnsweredTurn,
  decided: ApprovalRow[],
): Promise<Map<string, unknown>> {
  const inputs = new Map<string, unknown>();
  const [row] = await tx
    .select({ parts: messages.parts })
    .from(messages)
    .where(
      and(eq(messages.workstreamId, turn.workstreamId), eq(messages.id, turn.assistantMessageId)),
    )
    .limit(1);
  if (!row) return inputs;
  const byId = new Map(decided.map((approval) => [approval.id, approval]));
  const parts = (row.parts as Array<Record<string, unknown>>).map((part) => {
    const approval = part.approval as { id?: string } | undefined;
    const answer = approval?.id ? byId.get(approval.id) : undefined;
    if (!answer || part.state !== "approval-requested") return part;
    if (approval?.id) inputs.set(approval.id, part.input);
    return {
      ...part,
      state: "approval-responded",
      approval: {
        ...approval,
        approved: answer.state === "approved",
        ...(answer.reason ? { reason: answer.reason } : {}),
      },
    };
  });
  await tx
    .update(messages)
    .set({ parts, updatedAt: sql`now()` })
    .where(
      and(eq(messages.workstreamId, turn.workstreamId), eq(messages.id, turn.assistantMessageId)),
    );
  return inputs;
}

/**
 * The turn is taken back to go on: active again, run by this process under a lease, with the
 * workstream's busy flag; `resumed_offset` is where its events continue the kept answer.
 */
async function takeBack(
  tx: Tx,
  turn: AnsweredTurn,
  serverRunId: string,
  resumedOffset: number | null,
): Promise<void> {
  await tx
    .update(turns)
    .set({
      state: "active",
      serverRunId,
      ownerId: PROCESS_ID,
      leaseExpiresAt: sql`now() + ${`${config.turns.leaseMs} milliseconds`}::interval`,
      resumedOffset,
      reason: null,
      errorCode: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(turns.id, turn.id), eq(turns.state, "suspended")));
  await tx
    .update(workstreams)
    .set({ activeRunId: serverRunId })
    .where(eq(workstreams.id, turn.workstreamId));
}

export const approvalContinuation: TurnContinuation = {
  holding: (turnId, work) => runRegistry.holding(turnId, work),
  recordAnswers: recordInMessage,
  takeBack,
  continueTurn,
};
