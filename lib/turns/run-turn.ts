// One turn's run, stage by stage: COMPOSE_REQUEST, SEND_REQUEST, STREAM_RESPONSE (with a
// TOOL_CALL stage for each tool call inside the bounded tool loop), RENDER, each in its file
// under ./stages. Each stage writes the turn's status as it starts; hooks may transform, guard
// or observe at its pre and post points. RENDER always runs, whatever ended the run.
import { answerOutcome } from "./answer";
import { GuardRefusal } from "./hooks";
import {
  cancelled,
  describeModelError,
  failed,
  logTurnError,
  type Outcome,
  stopCode,
} from "./outcome";
import { type ComposedTurn, composeStage } from "./stages/compose-request";
import { renderStage } from "./stages/render";
import { type RunInput, startRun, type TurnRun } from "./stages/run";
import { sendStage } from "./stages/send-request";
import { prepareStream, streamStage } from "./stages/stream-response";

export type { RunInput };

export async function runTurn(input: RunInput): Promise<void> {
  const run = startRun(input);
  let composed: ComposedTurn | null = null;
  let outcome: Outcome;
  try {
    composed = await composeStage(run);
    outcome = await answer(run, composed);
  } catch (error) {
    const { turn, controller } = run;
    if (controller.signal.aborted) outcome = cancelled(turn.id, stopCode(controller.signal), null);
    else {
      if (!(error instanceof GuardRefusal)) logTurnError(turn.id, "failed", error);
      outcome = failed(turn.id, describeModelError(error), null);
    }
  }
  await renderStage(run, outcome, composed);
}

async function answer(run: TurnRun, composed: ComposedTurn): Promise<Outcome> {
  const streaming = prepareStream(run, composed);
  const result = await sendStage(run, composed, streaming);
  const streamed = await streamStage(run, composed, streaming, result);
  return answerOutcome(run, composed, streaming, streamed);
}
