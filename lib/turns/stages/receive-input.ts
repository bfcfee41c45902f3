// RECEIVE_INPUT's write: opening a turn, in one transaction, for a viewer checked before. It
// reads the viewer's workstream and a message posted before with the same id, counts the request
// against the user's rate limit, compare-and-sets the busy flag, and inserts the turn, the user
// message and the turn's first event, each through the module that owns its table. Nothing else
// is read here: what the prompt needs is COMPOSE_REQUEST's (./compose-request.ts).
import "server-only";
import { transaction } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import type { Viewer } from "@/lib/auth/viewer";
import { AppError } from "@/lib/kernel/errors";
import { lastOffsetIn, TurnLog, writeTurnEvents } from "@/lib/stream/event-log";
import type { LoggedChunk, LoggedEvent } from "@/lib/stream/types";
import { claimWorkstream, workstreamToOpen } from "@/lib/workstreams/busy";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { findPostedMessage, insertUserMessage, type PostedBefore } from "../message-store";
import type { WorkstreamMessage } from "../messages";
import { countTurn } from "../rate-limit";
import { insertTurn, type TurnRow, turnActiveError } from "../turn-records";

/** The workstream is compacting: the caller waits and tries again, or goes ahead regardless. */
export class WorkstreamCompacting extends Error {}

export type OpenedTurn = {
  turn: TurnRow;
  workstream: WorkstreamRow;
  /** The workstream's last offset before the turn's first event. */
  lastOffset: number;
  /** The turn's log, numbered on from its first events. */
  log: TurnLog;
  events: LoggedEvent[];
  /** Other servers were told of `events` by the opening's commit itself. */
  announced: boolean;
};

/**
 * Opens a turn, or refuses it writing nothing but the rate limit's count. The refusals, in this
 * order: not found, archived, compacting (a compaction whose lease lapsed does not count; with
 * `proceedWhileCompacting` a live one does not either), a message id used before (unless it is
 * Retry of a failed or cancelled turn), rate limited, busy. A concurrent opener that slipped past
 * the flag is stopped by the one-open-turn index, and refused as busy too.
 */
export async function openTurn({
  viewer,
  workstreamId,
  turnId,
  serverRunId,
  assistantMessageId,
  message,
  first,
  proceedWhileCompacting = false,
}: {
  viewer: Viewer;
  workstreamId: string;
  turnId: string;
  serverRunId: string;
  assistantMessageId: string;
  message: WorkstreamMessage;
  first: LoggedChunk[];
  proceedWhileCompacting?: boolean;
}): Promise<OpenedTurn> {
  let result: { opened: OpenedTurn } | { refused: AppError | "busy" };
  try {
    result = await transaction(async (tx) => {
      const found = await workstreamToOpen(tx, {
        workstreamId,
        organizationId: viewer.organizationId,
        userId: viewer.userId,
      });
      if (!found) throw new AppError("not_found:workstream");
      const { workstream } = found;
      if (workstream.status === "archived") throw new AppError("conflict:archived");
      if (found.compactingNow && !proceedWhileCompacting) throw new WorkstreamCompacting();
      checkRetry(await findPostedMessage(tx, { workstreamId, messageId: message.id }));
      // The count commits even when the turn is refused below: a refused request counts.
      const limited = await countTurn(tx, viewer.userId);
      if (limited) return { refused: limited };
      const claimed = await claimWorkstream(tx, { workstreamId, runId: serverRunId, turnId });
      if (!claimed) return { refused: "busy" as const };
      // The claim holds the workstream's row: nobody else numbers its events until commit.
      const lastOffset = await lastOffsetIn(tx, workstreamId);
      const turn = await insertTurn(tx, {
        id: turnId,
        workstreamId,
        organizationId: viewer.organizationId,
        userId: viewer.userId,
        userMessageId: message.id,
        assistantMessageId,
        agentId: workstream.agentId,
        serverRunId,
        lastOffset,
      });
      await insertUserMessage(tx, { workstreamId, turnId, message });
      const log = TurnLog.after(turn, lastOffset);
      const events = log.reserve(first);
      const { announced } = await writeTurnEvents(tx, events);
      return { opened: { turn, workstream, lastOffset, log, events, announced } };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw await turnActiveError(workstreamId);
    throw error;
  }
  if ("opened" in result) return result.opened;
  throw result.refused === "busy" ? await turnActiveError(workstreamId) : result.refused;
}

/** A re-POST of a message is Retry only when its turn failed or was cancelled. */
function checkRetry(existing: PostedBefore | null): void {
  if (!existing) return;
  if (existing.role !== "user") throw new AppError("conflict:message_id");
  if (existing.turnState === "failed" || existing.turnState === "cancelled") return;
  throw new AppError("conflict:duplicate_message", {
    details: { turnId: existing.turnId ?? null },
  });
}
