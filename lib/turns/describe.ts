// The client's view of a workstream's busy state: enough to resume a running turn after a
// reload (its id, state and first offset) without exposing internal run ids, and how the last
// turn ended when none is open, read from that turn's row (the log's tail may be another event).
import "server-only";
import { desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { isOpen, isRunning, turns } from "@/db/schema";
import { ERROR_SENTENCES, type ErrorCode, errorSentence, isErrorCode } from "@/lib/kernel/errors";
import { latestOffset } from "@/lib/stream/event-log";
import type { StatusChunk } from "@/lib/stream/types";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { retryableAfter } from "./outcome";
import type { TurnRow } from "./turn-records";

/** A turn's final status as its closing status event said it. */
export type EndedTurnStatus = StatusChunk["data"];

/** The status event a turn ended with, rebuilt from its row; null while it is open. */
export function endedTurnStatus(turn: TurnRow): EndedTurnStatus | null {
  switch (turn.state) {
    case "completed":
      return { turnId: turn.id, state: "ready" };
    case "cancelled":
      return {
        turnId: turn.id,
        state: "cancelled",
        reason: turn.reason ?? ERROR_SENTENCES["turn:stopped"],
      };
    case "failed": {
      const code: ErrorCode = isErrorCode(turn.errorCode) ? turn.errorCode : "turn:failed";
      return {
        turnId: turn.id,
        state: "error",
        code,
        message: errorSentence(code),
        retryable: retryableAfter(code),
      };
    }
    default:
      return null;
  }
}

/** The workstream's newest turn: the open one if any (a workstream opens one at a time). */
async function latestTurn(workstreamId: string): Promise<TurnRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(turns)
    .where(eq(turns.workstreamId, workstreamId))
    .orderBy(desc(turns.createdAt))
    .limit(1);
  return row ?? null;
}

export async function describeWorkstream(workstream: WorkstreamRow) {
  const latest = await latestTurn(workstream.id);
  const open = latest && isOpen(latest.state) ? latest : null;
  return {
    id: workstream.id,
    title: workstream.title,
    mode: workstream.mode,
    agentId: workstream.agentId,
    status: workstream.status,
    isRunning: open !== null && isRunning(open.state),
    isCompacting: workstream.isCompacting,
    activeTurn: open
      ? {
          id: open.id,
          state: open.state,
          firstOffset: open.firstOffset ?? 0,
          /**
           * Set once the turn went on after an approval: its events from here continue the
           * answer as history holds it, so a follower starts from the kept message.
           */
          resumedOffset: open.resumedOffset ?? null,
          userMessageId: open.userMessageId,
        }
      : null,
    /** How the last turn ended, when none is open. */
    lastTurn: latest && !open ? endedTurnStatus(latest) : null,
    latestOffset: await latestOffset({ workstreamId: workstream.id }),
    updatedAt: workstream.updatedAt.toISOString(),
  };
}
