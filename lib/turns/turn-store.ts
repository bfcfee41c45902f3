// The turns table: opening a turn (with the user message and the busy flag, in one
// transaction), reading open turns, and ending a turn together with its last events.
import { and, eq, inArray, isNull, notExists, or, sql } from "drizzle-orm";
import { type Db, getDb } from "@/db/client";
import { type TurnState, turnEvents, turns, workstreams } from "@/db/schema";
import { config } from "@/lib/config";
import { AppError, type ErrorCode } from "@/lib/http/errors";
import type { Attempt } from "@/lib/models/resilient-model";
import type { TokenUsage } from "@/lib/models/usage";
import { PROCESS_ID } from "@/lib/server/process-id";
import { getFanout } from "@/lib/stream/fanout-instance";
import type { LoggedChunk, LoggedEvent } from "@/lib/stream/types";
import { toStorableJson } from "@/lib/text/storable";
import { insertUserMessage, type WorkstreamMessage } from "./messages";
import { checkTurnRateLimit } from "./rate-limit";

export type TurnRow = typeof turns.$inferSelect;
export const OPEN_STATES: TurnState[] = ["pending", "active", "suspended"];
export const RUNNING_STATES: TurnState[] = ["pending", "active"];

export async function getOpenTurn({
  workstreamId,
}: {
  workstreamId: string;
}): Promise<TurnRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(turns)
    .where(and(eq(turns.workstreamId, workstreamId), inArray(turns.state, OPEN_STATES)))
    .limit(1);
  return row ?? null;
}

export async function getTurn({ turnId }: { turnId: string }): Promise<TurnRow | null> {
  const db = await getDb();
  const [row] = await db.select().from(turns).where(eq(turns.id, turnId)).limit(1);
  return row ?? null;
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === "23505";
}

async function turnActiveError(workstreamId: string): Promise<AppError> {
  const open = await getOpenTurn({ workstreamId });
  return new AppError("conflict:turn_active", {
    details: { turnId: open?.id ?? null, state: open?.state ?? null },
  });
}

/** Thrown inside openTurn's transaction; the 409 is built after it rolled back. */
class WorkstreamBusy extends Error {}

/**
 * RECEIVE_INPUT's write: the user's rate limit, the turn row (pending, leased to this process),
 * the busy flag (compare-and-set; a flag left by a run that is no longer open counts as free) and
 * the user message, atomically. Returns the turn and the offset its events start after.
 */
export async function openTurn(input: {
  turnId: string;
  workstreamId: string;
  organizationId: string;
  userId: string;
  serverRunId: string;
  message: WorkstreamMessage;
  assistantMessageId: string;
  agentId: string;
}): Promise<{ turn: TurnRow; lastOffset: number }> {
  const db = await getDb();
  try {
    return await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await checkTurnRateLimit(tx, { userId: input.userId });
      const [turn] = await tx
        .insert(turns)
        .values({
          id: input.turnId,
          workstreamId: input.workstreamId,
          organizationId: input.organizationId,
          userId: input.userId,
          userMessageId: input.message.id,
          assistantMessageId: input.assistantMessageId,
          agentId: input.agentId,
          state: "pending",
          serverRunId: input.serverRunId,
          ownerId: PROCESS_ID,
          leaseExpiresAt: sql`now() + ${`${config.turns.leaseMs} milliseconds`}::interval`,
        })
        .returning();
      const claimed = await tx
        .update(workstreams)
        .set({ activeRunId: input.serverRunId })
        .where(
          and(
            eq(workstreams.id, input.workstreamId),
            or(
              isNull(workstreams.activeRunId),
              notExists(
                tx
                  .select({ one: sql`1` })
                  .from(turns)
                  .where(
                    and(
                      eq(turns.serverRunId, workstreams.activeRunId),
                      inArray(turns.state, RUNNING_STATES),
                      sql`${turns.id} <> ${input.turnId}`,
                    ),
                  ),
              ),
            ),
          ),
        )
        .returning({ id: workstreams.id });
      // Not the 409 itself: building it reads the open turn on another connection, which must
      // not wait for a pooled connection while this one holds the user's rate-limit lock.
      if (claimed.length === 0) throw new WorkstreamBusy();
      await insertUserMessage(tx, {
        workstreamId: input.workstreamId,
        message: input.message,
        turnId: input.turnId,
      });
      const [row] = await tx
        .select({ offset: sql<string | number | null>`max(${turnEvents.offset})` })
        .from(turnEvents)
        .where(eq(turnEvents.workstreamId, input.workstreamId));
      const lastOffset = Number(row?.offset ?? 0);
      await tx
        .update(turns)
        .set({ firstOffset: lastOffset + 1 })
        .where(eq(turns.id, input.turnId));
      if (!turn) throw new Error("turn insert returned nothing");
      return { turn, lastOffset };
    });
  } catch (error) {
    if (error instanceof WorkstreamBusy || isUniqueViolation(error)) {
      throw await turnActiveError(input.workstreamId);
    }
    throw error;
  }
}

export async function markActive({
  turnId,
  model,
}: {
  turnId: string;
  model?: string;
}): Promise<void> {
  const db = await getDb();
  await db
    .update(turns)
    .set({ state: "active", startedAt: sql`now()`, updatedAt: sql`now()`, model })
    .where(and(eq(turns.id, turnId), eq(turns.state, "pending")));
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
 * Ends a turn: its final events, its state and the cleared busy flag in one transaction, then
 * the events are fanned out. Nobody can see the turn as open after its terminal event, and a
 * next turn cannot take offsets before this turn's last one.
 */
export async function closeTurn({
  turn,
  end,
  events,
  ownerCheck = true,
}: {
  turn: Pick<TurnRow, "id" | "workstreamId" | "serverRunId">;
  end: TurnEnd;
  events: LoggedEvent[];
  ownerCheck?: boolean;
}): Promise<boolean> {
  const db = await getDb();
  const closed = await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const updated = await tx
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
        lastOffset: events.at(-1)?.offset ?? sql`${turns.lastOffset}`,
        ownerId: null,
        leaseExpiresAt: null,
      })
      .where(
        and(
          eq(turns.id, turn.id),
          inArray(turns.state, OPEN_STATES),
          ownerCheck ? eq(turns.ownerId, PROCESS_ID) : undefined,
        ),
      )
      .returning({ id: turns.id });
    if (updated.length === 0) return false;
    if (events.length) {
      await tx.insert(turnEvents).values(
        events.map((event) => ({
          workstreamId: event.workstreamId,
          offset: event.offset,
          turnId: event.turnId,
          chunk: toStorableJson(event.chunk),
        })),
      );
    }
    // Clear the busy flag only if it is still this run's (seed 000 cleanup).
    if (turn.serverRunId) {
      await tx
        .update(workstreams)
        .set({ activeRunId: null, updatedAt: sql`now()` })
        .where(
          and(eq(workstreams.id, turn.workstreamId), eq(workstreams.activeRunId, turn.serverRunId)),
        );
    }
    return true;
  });
  if (closed && events.length) await (await getFanout()).publish(events);
  return closed;
}

export function chunkEvents(
  turn: { id: string; workstreamId: string },
  firstOffset: number,
  chunks: LoggedChunk[],
): LoggedEvent[] {
  return chunks.map((chunk, index) => ({
    workstreamId: turn.workstreamId,
    turnId: turn.id,
    offset: firstOffset + index,
    chunk,
  }));
}
