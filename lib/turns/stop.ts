// Stop: aborts the open turn wherever it runs, keeping what it answered so far.
// The owning process aborts its run; any other process records the request in the database and
// signals the owner (NOTIFY on Postgres; the owner's lease loop also checks). A suspended turn
// holds no run, so it is cancelled here directly.
import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb, transaction } from "@/db/client";
import { isOpen, isRunningSql, turns, workstreams } from "@/db/schema";
import { cancelApprovals } from "@/lib/approvals/store";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { appendEventsLocked } from "@/lib/stream/event-log";
import { getFanout, publishLive } from "@/lib/stream/fanout-instance";
import { statusChunk } from "@/lib/stream/types";
import { bus } from "./bus";
import { runRegistry } from "./run-registry";
import { getOpenTurn, getTurn, type TurnRow } from "./turn-records";

export type StopResult = { turnId: string | null; state: TurnRow["state"] | null };

/**
 * Stops the workstream's open turn. Every stop records the same reason (`turn:stopped`), whether
 * the owner or an admin asked and whichever process runs the turn.
 */
export async function stopActiveTurn({
  workstreamId,
  waitMs = 10_000,
}: {
  workstreamId: string;
  waitMs?: number;
}): Promise<StopResult> {
  const open = await getOpenTurn({ workstreamId });
  if (!open) return { turnId: null, state: null };
  if (open.state === "suspended") {
    await cancelSuspended(open);
  } else if (!runRegistry.abort(open.id, "turn:stopped")) {
    const db = await getDb();
    await db
      .update(turns)
      .set({ stopRequestedAt: sql`now()` })
      .where(and(eq(turns.id, open.id), isRunningSql(turns.state), isNull(turns.stopRequestedAt)));
    await (await getFanout()).requestStop(open.id);
  }
  // Answer once the turn has ended, so the caller sees the partial answer persisted.
  const deadline = Date.now() + waitMs;
  for (;;) {
    const current = await getTurn({ turnId: open.id });
    const state = current?.state ?? null;
    if (!(state && isOpen(state)) || Date.now() > deadline) return { turnId: open.id, state };
    await runRegistry.get(open.id)?.done;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function cancelSuspended(turn: TurnRow): Promise<void> {
  const reason = ERROR_SENTENCES["turn:stopped"];
  // The suspended turn owns no offsets, so its closing events are numbered under the lock
  // (the one answers take too: a stop and an answer never cross).
  const events = await transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${turn.workstreamId}))`);
    const closed = await tx
      .update(turns)
      .set({
        state: "cancelled",
        reason,
        errorCode: "turn:stopped",
        endedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(turns.id, turn.id), eq(turns.state, "suspended")))
      .returning({ id: turns.id });
    if (closed.length === 0) return [];
    // What it waited for is no longer asked: answering it now is refused.
    await cancelApprovals(tx, turn.id);
    return appendEventsLocked({
      workstreamId: turn.workstreamId,
      turnId: turn.id,
      chunks: [statusChunk(turn.id, { state: "cancelled", reason })],
      tx,
    });
  });
  if (events.length === 0) return;
  await (await getFanout()).publish(events);
  bus.emit({
    type: "SessionTurnEnd",
    turnId: turn.id,
    workstreamId: turn.workstreamId,
    state: "cancelled",
  });
  // The owner's other tabs show the approval card until they hear of it.
  const owner = await ownerOf(turn.workstreamId);
  await publishLive({
    organizationId: turn.organizationId,
    userId: owner,
    event: { type: "approval", workstreamId: turn.workstreamId, turnId: turn.id, continued: false },
  });
}

async function ownerOf(workstreamId: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ ownerId: workstreams.ownerId })
    .from(workstreams)
    .where(eq(workstreams.id, workstreamId))
    .limit(1);
  return row?.ownerId ?? null;
}
