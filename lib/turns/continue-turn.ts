// The same turn, going on after its approvals were answered: it is read back from the database
// (the workstream, the kept answer, and the owner as the context shows them) and run again here,
// continuing the kept answer; COMPOSE_REQUEST reads the rest (the history, with the kept answer
// last) as for any turn. The
// approved tools run once, in the AI SDK's continuation step; denied ones reach the model as
// denials. Whatever fails before the run starts ends the turn failed, never leaves it taken.
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { member, messages, organization, turns, user, workstreams } from "@/db/schema";
import { toRole } from "@/lib/auth/organizations";
import type { Viewer } from "@/lib/auth/viewer";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import type { Attempt } from "@/lib/models/resilient-model";
import type { TokenUsage } from "@/lib/models/usage";
import { TurnLog } from "@/lib/stream/event-log";
import { statusChunk } from "@/lib/stream/types";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import { bus } from "./bus";
import { closeTurn } from "./close-turn";
import type { MessageMetadata, WorkstreamMessage } from "./messages";
import { logTurnError } from "./outcome";
import { runRegistry } from "./run-registry";
import { runTurn } from "./run-turn";
import type { ResumedTurn } from "./suspend";
import type { TurnRow } from "./turn-records";

type Continuation = {
  turn: TurnRow;
  workstream: WorkstreamRow;
  viewer: Viewer;
  resumed: ResumedTurn;
};

/**
 * Runs the taken-back turn in this process (not tied to any request). `lastOffset` is the log's
 * last offset when it was taken back: its events follow.
 */
export function continueTurn({
  turnId,
  workstreamId,
  serverRunId,
  lastOffset,
}: {
  turnId: string;
  workstreamId: string;
  serverRunId: string;
  lastOffset: number;
}): void {
  const controller = new AbortController();
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  // Registered before the read-back: the turn is this process's already, and while it is read
  // the reaper must see it as running here (a stop finds it here too).
  runRegistry.register({ turnId, workstreamId, serverRunId, controller, done });
  void (async () => {
    let read: Continuation | null = null;
    try {
      read = await readContinuation(turnId);
    } catch (error) {
      logTurnError(turnId, "could not be read back to go on", error);
    }
    if (!read || read.turn.serverRunId !== serverRunId) {
      await failTaken(turnId, serverRunId, lastOffset);
      runRegistry.unregister(turnId);
      return;
    }
    const { turn, workstream } = read;
    bus.emit({
      type: "SessionTurnStart",
      turnId,
      workstreamId: workstream.id,
      workstream: { ...workstream, isRunning: true },
    });
    await runTurn({
      turn,
      workstream,
      viewer: read.viewer,
      controller,
      log: TurnLog.after(turn, lastOffset),
      resumed: read.resumed,
    });
  })()
    .catch((error: unknown) => {
      runRegistry.unregister(turnId);
      logTurnError(turnId, "could not go on", error);
    })
    .finally(finished);
}

/** A turn taken back that cannot run: it ends failed here, with the answer it kept. */
async function failTaken(turnId: string, serverRunId: string, lastOffset: number): Promise<void> {
  const db = await getDb();
  const [turn] = await db.select().from(turns).where(eq(turns.id, turnId)).limit(1);
  if (!turn) return;
  const text = ERROR_SENTENCES["turn:failed"];
  const events = TurnLog.after(turn, lastOffset).reserve([
    { type: "error", errorText: text },
    statusChunk(turnId, { state: "error", code: "turn:failed", message: text, retryable: true }),
  ]);
  const closed = await closeTurn({
    turn: { id: turnId, workstreamId: turn.workstreamId, serverRunId },
    end: { state: "failed", reason: text, errorCode: "turn:failed" },
    events,
  }).catch((error: unknown) => {
    logTurnError(turnId, "could not be closed", error);
    return null;
  });
  if (!closed?.closed) return;
  bus.emit({
    type: "SessionTurnEnd",
    turnId,
    workstreamId: turn.workstreamId,
    state: "failed",
    workstream: closed.workstream ? { ...closed.workstream, isRunning: false } : undefined,
  });
}

type MessageRow = typeof messages.$inferSelect;

function toMessage(row: MessageRow): WorkstreamMessage {
  return {
    id: row.id,
    role: row.role,
    parts: row.parts as WorkstreamMessage["parts"],
    metadata: row.metadata as MessageMetadata,
  };
}

/** Everything the turn goes on from, as the database holds it now. */
async function readContinuation(turnId: string): Promise<Continuation | null> {
  const db = await getDb();
  const [found] = await db
    .select({ turn: turns, workstream: workstreams })
    .from(turns)
    .innerJoin(workstreams, eq(workstreams.id, turns.workstreamId))
    .where(eq(turns.id, turnId))
    .limit(1);
  // Taken back by this answer, so active; anything else means it ended meanwhile.
  if (!found) return null;
  if (found.turn.state !== "active") return null;
  const { turn, workstream } = found;
  const [answer] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.workstreamId, workstream.id), eq(messages.id, turn.assistantMessageId)))
    .limit(1);
  if (!answer) return null;
  const viewer = await readOwner(workstream);
  return {
    turn,
    workstream,
    viewer,
    resumed: {
      message: toMessage(answer),
      record: {
        usage: (turn.usage as TokenUsage | null) ?? null,
        costUsd: turn.costUsd,
        attempts: (turn.attempts as Attempt[] | null) ?? [],
      },
    },
  };
}

/** The workstream's owner as the context's member section shows them. */
async function readOwner(workstream: WorkstreamRow): Promise<Viewer> {
  const db = await getDb();
  const [row] = workstream.ownerId
    ? await db
        .select({
          name: user.name,
          email: user.email,
          role: sql<string | null>`(select ${member.role} from ${member}
            where ${member.userId} = ${user.id}
              and ${member.organizationId} = ${workstream.organizationId} limit 1)`,
          organizationName: sql<string | null>`(select ${organization.name} from ${organization}
            where ${organization.id} = ${workstream.organizationId})`,
        })
        .from(user)
        .where(eq(user.id, workstream.ownerId))
        .limit(1)
    : [];
  return {
    userId: workstream.ownerId ?? "",
    userName: row?.name ?? "",
    email: row?.email ?? "",
    sessionId: "",
    organizationId: workstream.organizationId,
    organizationName: row?.organizationName ?? "",
    role: toRole(row?.role ?? "member"),
  };
}
