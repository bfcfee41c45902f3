// RECEIVE_INPUT: the RECEIVE_INPUT hooks see the message, then the turn opens in one transaction
// (./stages/receive-input.ts: busy flag, turn row, user message and first event, durable before
// any model call); the run is registered and goes on its own, not tied to the request. A
// workstream that is compacting is waited for, for a while: then the turn goes ahead without the
// new summary.

import type { Viewer } from "@/lib/auth/viewer";
import { config } from "@/lib/config";
import { errorClass } from "@/lib/kernel/error-class";
import { AppError } from "@/lib/kernel/errors";
import { getFanout } from "@/lib/stream/fanout-instance";
import { WorkstreamSubscription } from "@/lib/stream/follow";
import { type LoggedEvent, statusChunk } from "@/lib/stream/types";
import { bus, stage } from "./bus";
import { GuardRefusal, runStageHooks } from "./hooks";
import type { WorkstreamMessage } from "./messages";
import { runRegistry } from "./run-registry";
import { runTurn } from "./run-turn";
import { openTurn, WorkstreamCompacting } from "./stages/receive-input";
import { TurnTrace } from "./trace";
import type { TurnRow } from "./turn-records";

/** How often a waiting message looks again whether the compaction is done. */
const COMPACTION_POLL_MS = 200;

export type StartedTurn = {
  turn: TurnRow;
  /** The turn's events so far (committed): the response starts from them, without a read. */
  events: LoggedEvent[];
  /** Live signals from before those events were announced, for the response to follow. */
  subscription: WorkstreamSubscription;
  followAfter: number;
};

/** Opens a turn for `viewer`, checked before (the route's `requireViewer`). */
export async function startTurn({
  viewer,
  workstreamId,
  message,
}: {
  viewer: Viewer;
  workstreamId: string;
  message: WorkstreamMessage;
}): Promise<StartedTurn> {
  const turnId = `turn_${crypto.randomUUID().replaceAll("-", "")}`;
  const serverRunId = crypto.randomUUID();
  const trace = new TurnTrace({
    turnId,
    workstreamId,
    organizationId: viewer.organizationId,
    run: "start",
  });
  // The opening commit makes this process the turn's owner before its run is registered below:
  // held meanwhile, so the reaper never takes it for one whose close failed.
  const release = runRegistry.reserve(turnId);
  const receive = stage({ turnId, trace }, "RECEIVE_INPUT", async () => {
    const input = await runStageHooks(
      "RECEIVE_INPUT",
      { message },
      { turnId, workstreamId, organizationId: viewer.organizationId, userId: viewer.userId },
    ).catch((error: unknown) => {
      if (error instanceof GuardRefusal) {
        throw new AppError("forbidden:guard", { details: { hook: error.hook } });
      }
      throw error;
    });
    // While the workstream compacts, the turn waits for the summary, up to the configured
    // time; then it goes ahead on the history as it is (the builder keeps it within the window).
    const deadline = Date.now() + config.compaction.waitMs;
    for (;;) {
      const late = Date.now() >= deadline;
      try {
        return await open(input.message, late);
      } catch (error) {
        if (!(error instanceof WorkstreamCompacting) || late) throw error;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(COMPACTION_POLL_MS, Math.max(0, deadline - Date.now()))),
        );
      }
    }
  });

  // Refused (not found, busy, rate limited, a guard): the turn never opened; its span ends so.
  const opened = await receive.catch((error: unknown) => {
    release();
    trace.end({ state: "refused", errorCode: error instanceof AppError ? error.code : undefined });
    throw error;
  });

  function open(posted: WorkstreamMessage, proceedWhileCompacting: boolean) {
    return openTurn({
      proceedWhileCompacting,
      turnId,
      workstreamId,
      viewer,
      serverRunId,
      assistantMessageId: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
      message: posted,
      first: [statusChunk(turnId, { state: "acknowledged" })],
    });
  }

  const { turn, workstream, log, events, announced, lastOffset } = opened;
  const fanout = await getFanout();
  const subscription = new WorkstreamSubscription(fanout, workstreamId);
  void fanout.publish(events, { announced }).catch((error: unknown) => {
    // Committed but not announced: followers elsewhere catch up from the log on their next poll.
    console.error(`[turns] announcing ${turnId} failed (${errorClass(error)})`);
  });
  const controller = new AbortController();
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  runRegistry.register({ turnId, workstreamId, serverRunId, controller, done });
  release();
  bus.emit({
    type: "SessionTurnStart",
    turnId,
    workstreamId,
    workstream: { ...workstream, isRunning: true },
  });
  void runTurn({ turn, workstream, viewer, controller, log, trace }).finally(finished);
  return { turn, events, subscription, followAfter: lastOffset };
}
