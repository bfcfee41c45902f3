// Ending a turn (or suspending it): one transaction writes the turn's end (turns), its last
// events (the event log), its answer (messages), the freed workstream (its busy flag) and the
// post-turn event (the outbox, through the jobs port), each through the module that owns the
// table; the events are fanned out once committed. The turn's run, a stop, the reaper and a
// continuation that cannot run all close through here.
import "server-only";
import { transaction } from "@/db/client";
import { config } from "@/lib/config";
import type { JobEvent } from "@/lib/jobs/define";
import { enqueueJobEvent } from "@/lib/jobs/enqueue";
import { type TurnCompletedData, turnCompleted } from "@/lib/jobs/events";
import type { ContextRecord } from "@/lib/state/schema";
import { writeTurnEvents } from "@/lib/stream/event-log";
import { getFanout } from "@/lib/stream/fanout-instance";
import type { LoggedEvent } from "@/lib/stream/types";
import { type FreedWorkstream, freeWorkstream } from "@/lib/workstreams/busy";
import { stillOnboarding } from "@/lib/workstreams/onboarding";
import { saveAnswer } from "./message-store";
import type { WorkstreamMessage } from "./messages";
import type { RunRecord } from "./trace";
import { endTurn, type TurnEnd, type TurnRow } from "./turn-records";

export type { TurnEnd };

/**
 * What the turn's post-turn event says besides its ids: whether the turn completed, whether its
 * history is due for compaction, and whether its messages may hold a skill.
 */
export type PostTurnEvent = {
  id: string;
  completed: boolean;
  compact: boolean;
  /** Whether the turn's messages lay out a procedure (a skill job has work to do). */
  skills: boolean;
};

/** The workstream as the close left it, for the live update that follows. */
export type ClosedWorkstream = FreedWorkstream;

/**
 * Ends a turn, all or nothing, only while it is open (and, unless `ownerCheck` is off, ours).
 * Nobody can see the turn as open after its terminal event, and a next turn cannot take offsets
 * before this turn's last one: the busy flag is cleared (only if it is still this run's) in the
 * same commit.
 */
export async function closeTurn({
  turn,
  end,
  events,
  message = null,
  ownerCheck = true,
  reap = false,
  startedWith,
  context = null,
  postTurnEvent = null,
  answerTokens,
  run,
}: {
  turn: Pick<TurnRow, "id" | "workstreamId" | "serverRunId">;
  end: TurnEnd;
  events: LoggedEvent[];
  /** The turn's answer, written as its assistant message. */
  message?: WorkstreamMessage | null;
  ownerCheck?: boolean;
  /**
   * A reaper's close: only while the turn still runs under the run it read. A turn that was
   * suspended, or taken back by an approval, since the reaper read it is left alone.
   */
  reap?: boolean;
  /** The model of a turn that became active without a write of its own (it ends at once). */
  startedWith?: string;
  /** What the model was sent, by section with token counts ("what the agent saw"). */
  context?: ContextRecord | null;
  /** The post-turn event, queued with the end so background work exists exactly when it does. */
  postTurnEvent?: PostTurnEvent | null;
  /** The answer's token count when the caller has counted it already. */
  answerTokens?: number;
  /** What this run of the turn did, appended to the turn's timeline. */
  run?: RunRecord;
}): Promise<{
  closed: boolean;
  workstream: ClosedWorkstream | null;
  /** The post-turn event as the close wrote it (the job engine takes it over by id). */
  queuedEvent: JobEvent<TurnCompletedData> | null;
}> {
  const closed = await transaction(async (tx) => {
    const ended = await endTurn(tx, {
      turn,
      end,
      lastOffset: events.at(-1)?.offset ?? null,
      ownerCheck,
      reap,
      startedWith,
      context,
      run,
    });
    if (!ended) return null;
    const { announced } = await writeTurnEvents(tx, events);
    if (message) {
      await saveAnswer(tx, {
        workstreamId: turn.workstreamId,
        turnId: turn.id,
        message,
        tokens: answerTokens,
      });
    }
    const workstream = await freeWorkstream(tx, {
      workstreamId: turn.workstreamId,
      runId: turn.serverRunId,
    });
    let queuedEvent: JobEvent<TurnCompletedData> | null = null;
    if (postTurnEvent && workstream) {
      const data: TurnCompletedData = {
        turnId: turn.id,
        workstreamId: workstream.id,
        organizationId: workstream.organizationId,
        userId: workstream.ownerId,
        completed: postTurnEvent.completed,
        compact: postTurnEvent.compact,
        skills: postTurnEvent.skills,
        untitled:
          postTurnEvent.completed &&
          workstream.mode === "group" &&
          !workstream.core &&
          workstream.title === config.workstreams.defaultGroupTitle,
        onboarding: workstream.ownerId
          ? await stillOnboarding(tx, {
              organizationId: workstream.organizationId,
              userId: workstream.ownerId,
            })
          : false,
      };
      await enqueueJobEvent(tx, turnCompleted, data, { id: postTurnEvent.id });
      queuedEvent = { id: postTurnEvent.id, name: turnCompleted.name, data, ts: Date.now() };
    }
    return { announced, workstream, queuedEvent };
  });
  if (!closed) return { closed: false, workstream: null, queuedEvent: null };
  if (events.length) await (await getFanout()).publish(events, { announced: closed.announced });
  return { closed: true, workstream: closed.workstream, queuedEvent: closed.queuedEvent };
}
