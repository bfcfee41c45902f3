// RENDER: the answer kept and the turn closed (./close-turn.ts: the turn's end, its last events,
// the answer, the freed workstream and the post-turn event in one transaction), then the run is
// always unregistered. What background work the turn needs is decided here, from the history the
// turn read and its answer, so the decision costs no statement: compaction when the history
// passed its threshold, a skill job when the messages lay out a procedure.
import { recordApprovals } from "@/lib/approvals/store";
import { config } from "@/lib/config";
import { compactionDue, historyBudget, messageBudgetTokens, windowOf } from "@/lib/context/window";
import { wakeJobsSoon } from "@/lib/jobs/port";
import { mayHoldSkills } from "@/lib/skills/procedure";
import { textOf } from "@/lib/text/message-text";
import { bus, stage } from "../bus";
import { closeTurn, type PostTurnEvent } from "../close-turn";
import { afterStage, beforeStage } from "../hooks";
import { countTokens, type WorkstreamMessage } from "../messages";
import { failed, logTurnError, type Outcome } from "../outcome";
import { runRegistry, StopRequested } from "../run-registry";
import type { ComposedTurn } from "./compose-request";
import type { TurnRun } from "./run";

export async function renderStage(
  run: TurnRun,
  ended: Outcome,
  composed: ComposedTurn | null,
): Promise<void> {
  const { turn, workstream, log, controller, scope, ctx, trace } = run;
  let outcome = ended;
  trace.startRender();
  try {
    await stage(scope, "RENDER", async () => {
      const { message } = await beforeStage("RENDER", { message: outcome.message }, ctx);
      const events = await log.closingEvents((refused) => {
        // A turn whose events the log refused ends failed, whatever it was about to be.
        if (refused) logTurnError(turn.id, "event log write failed", log.failure);
        if (refused && outcome.end.state !== "failed") {
          const { usage, costUsd, attempts } = outcome.end;
          outcome = failed(turn.id, { code: "turn:failed" }, message, {
            usage,
            costUsd,
            attempts,
          });
        }
        return outcome.closing;
      });
      const answerTokens = message ? countTokens(message.parts) : 0;
      const postTurnEvent = postTurn(run, outcome, composed, message, answerTokens);
      // What a suspended turn waits for is recorded first (see recordApprovals).
      const waitsFor = outcome.end.state === "suspended" ? (outcome.approvals ?? []) : [];
      await recordApprovals({
        turn: { ...turn, organizationId: workstream.organizationId },
        requested: waitsFor,
        expiresAt: new Date(Date.now() + config.approvals.timeoutMs),
      });
      const closed = await closeTurn({
        turn,
        end: outcome.end,
        events,
        message,
        startedWith: log.activatesOnClose,
        context: run.context,
        postTurnEvent,
        answerTokens: message ? answerTokens : undefined,
        run: trace.record(outcome.end.state),
      });
      await afterStage("RENDER", { message }, ctx);
      // The expiry of what it waits for is in the outbox now.
      if (closed.closed && waitsFor.length > 0) wakeJobsSoon();
      // A turn the reaper (or a stop) closed first was announced by whoever closed it.
      if (!closed.closed) return;
      const after = closed.workstream ? { ...closed.workstream, isRunning: false } : undefined;
      bus.emit({
        type: "SessionTurnEnd",
        turnId: turn.id,
        workstreamId: workstream.id,
        state: outcome.end.state,
        workstream: after,
        queuedEvent: closed.queuedEvent ?? undefined,
      });
      if (outcome.end.state === "completed") {
        bus.emit({
          type: "TurnCompleted",
          turnId: turn.id,
          workstreamId: workstream.id,
          organizationId: workstream.organizationId,
          workstream: after,
        });
      }
    });
  } catch (error) {
    // The lease lapses and the reaper ends the turn; the busy flag cannot stay set forever.
    logTurnError(turn.id, "could not be closed", error);
  } finally {
    const { state, errorCode, usage, costUsd } = outcome.end;
    trace.end({ state, errorCode, model: outcome.message?.metadata?.model, usage, costUsd });
    runRegistry.unregister(turn.id);
    if (!controller.signal.aborted) controller.abort(new StopRequested("disposed"));
  }
}

/**
 * The post-turn event, for a turn that kept an answer: every completed turn, and a stopped or
 * failed one whose history is due for compaction. None otherwise.
 */
function postTurn(
  run: TurnRun,
  outcome: Outcome,
  composed: ComposedTurn | null,
  message: WorkstreamMessage | null,
  answerTokens: number,
): PostTurnEvent | null {
  const completed = outcome.end.state === "completed";
  const compact =
    message !== null &&
    composed !== null &&
    compactionDue({
      historyTokens: historyBudget(composed.history) + messageBudgetTokens(answerTokens),
      leftOut: composed.historyLeftOut,
      window: run.context?.window ?? windowOf(""),
    });
  const skills =
    completed &&
    message !== null &&
    mayHoldSkills({ member: memberText(run, composed), agent: textOf(message) });
  return completed || compact ? { id: crypto.randomUUID(), completed, compact, skills } : null;
}

/** The turn's member message, from the history it read, as text. */
function memberText(run: TurnRun, composed: ComposedTurn | null): string {
  const member = composed?.history.findLast(
    (entry) => entry.message.id === run.turn.userMessageId,
  )?.message;
  return textOf(member);
}
