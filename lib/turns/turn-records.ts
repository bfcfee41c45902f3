// The turns table: a turn's row as the opening inserts it, its end as the close writes it, and
// the reads of open turns. Writes take the caller's transaction (the opening's, the close's).
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { isOpenSql, isRunningSql, type TurnState, turns } from "@/db/schema";
import { firstPendingApproval } from "@/lib/approvals/store";
import { config } from "@/lib/config";
import { AppError, type ErrorCode } from "@/lib/kernel/errors";
import { PROCESS_ID } from "@/lib/kernel/process-id";
import type { Attempt } from "@/lib/models/resilient-model";
import type { TokenUsage } from "@/lib/models/usage";
import type { ContextRecord } from "@/lib/state/schema";
import type { RunRecord } from "./trace";

export type TurnRow = typeof turns.$inferSelect;

export async function getOpenTurn({
  workstreamId,
}: {
  workstreamId: string;
}): Promise<TurnRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(turns)
    .where(and(eq(turns.workstreamId, workstreamId), isOpenSql(turns.state)))
    .limit(1);
  return row ?? null;
}

export async function getTurn({ turnId }: { turnId: string }): Promise<TurnRow | null> {
  const db = await getDb();
  const [row] = await db.select().from(turns).where(eq(turns.id, turnId)).limit(1);
  return row ?? null;
}

/** `conflict:turn_active`, naming the open turn (and the approval a suspended one waits for). */
export async function turnActiveError(workstreamId: string): Promise<AppError> {
  const open = await getOpenTurn({ workstreamId });
  // A turn waiting for the owner names what it waits for: the approval to answer.
  const waiting = open?.state === "suspended" ? await firstPendingApproval(open.id) : null;
  return new AppError("conflict:turn_active", {
    details: {
      turnId: open?.id ?? null,
      state: open?.state ?? null,
      ...(waiting ? { approvalId: waiting.id, toolName: waiting.toolName } : {}),
    },
  });
}

/** A new turn, pending, leased to this process; its events start after `lastOffset`. */
export async function insertTurn(
  tx: Tx,
  turn: Pick<
    TurnRow,
    | "id"
    | "workstreamId"
    | "organizationId"
    | "userId"
    | "userMessageId"
    | "assistantMessageId"
    | "agentId"
    | "serverRunId"
  > & { lastOffset: number },
): Promise<TurnRow> {
  const { lastOffset, ...row } = turn;
  const [inserted] = await tx
    .insert(turns)
    .values({
      ...row,
      state: "pending",
      ownerId: PROCESS_ID,
      leaseExpiresAt: sql`now() + ${`${config.turns.leaseMs} milliseconds`}::interval`,
      firstOffset: lastOffset + 1,
    })
    .returning();
  if (!inserted) throw new Error(`The turn ${turn.id} was not inserted.`);
  return inserted;
}

export type TurnEnd = {
  state: Extract<TurnState, "completed" | "cancelled" | "failed" | "suspended">;
  /** The sentence of `errorCode`: what the chat, the turn row and the admin runs list show. */
  reason?: string;
  errorCode?: ErrorCode;
  /** Null when the provider reported no counts: unknown, not free. */
  usage?: TokenUsage | null;
  costUsd?: number | null;
  /** The model calls the turn made, each with its outcome (and failure code). */
  attempts?: Attempt[];
};

/**
 * Writes a turn's end (or its suspension) while it is open and, unless `ownerCheck` is off,
 * ours; a reaper's (`reap`) only while it still runs under the run the reaper read. Returns
 * whether it did: a turn someone else ended first is left as it is.
 */
export async function endTurn(
  tx: Tx,
  {
    turn,
    end,
    lastOffset,
    ownerCheck,
    reap,
    startedWith,
    context,
    run,
  }: {
    turn: Pick<TurnRow, "id" | "serverRunId">;
    end: TurnEnd;
    lastOffset: number | null;
    ownerCheck: boolean;
    reap: boolean;
    startedWith?: string;
    context: ContextRecord | null;
    run?: RunRecord;
  },
): Promise<boolean> {
  const ended = await tx
    .update(turns)
    .set({
      state: end.state,
      reason: end.reason ?? null,
      errorCode: end.errorCode ?? null,
      usage: end.usage ?? null,
      costUsd: end.costUsd ?? null,
      ...(end.attempts?.length ? { attempts: end.attempts } : {}),
      endedAt: end.state === "suspended" ? null : sql`now()`,
      updatedAt: sql`now()`,
      ...(lastOffset !== null ? { lastOffset } : {}),
      ownerId: null,
      leaseExpiresAt: null,
      // A turn that becomes active without a write of its own (it ends at once).
      ...(startedWith
        ? {
            startedAt: sql`coalesce(${turns.startedAt}, now())`,
            model: sql`coalesce(${turns.model}, ${startedWith}::text)`,
          }
        : {}),
      ...(context ? { context } : {}),
      ...(run
        ? {
            timeline: sql`coalesce(${turns.timeline}, '[]'::jsonb) || jsonb_build_array(${JSON.stringify(run)}::jsonb)`,
          }
        : {}),
    })
    .where(
      and(
        eq(turns.id, turn.id),
        isOpenSql(turns.state),
        ownerCheck ? eq(turns.ownerId, PROCESS_ID) : undefined,
        reap
          ? and(
              isRunningSql(turns.state),
              sql`${turns.serverRunId} is not distinct from ${turn.serverRunId ?? null}::text`,
            )
          : undefined,
      ),
    )
    .returning({ id: turns.id });
  return ended.length > 0;
}
