// What every stage of one run of a turn is handed: the turn, its workstream and viewer, its
// log, its stop signal, the hooks' context, the stage scope that writes statuses, and the trace.
import type { Viewer } from "@/lib/auth/viewer";
import type { ContextRecord } from "@/lib/state/schema";
import type { TurnLog } from "@/lib/stream/event-log";
import { statusChunk } from "@/lib/stream/types";
import type { WorkstreamRow } from "@/lib/workstreams/queries";
import type { StageScope } from "../bus";
import type { HookContext } from "../hooks";
import type { ResumedTurn } from "../suspend";
import { TurnTrace } from "../trace";
import type { TurnRow } from "../turn-records";

export type RunInput = {
  turn: TurnRow;
  workstream: WorkstreamRow;
  viewer: Viewer;
  controller: AbortController;
  log: TurnLog;
  /** The turn goes on after its approvals were answered, from the answer it kept then. */
  resumed?: ResumedTurn;
  /** The run's stage timings so far (RECEIVE_INPUT's, for a new turn). */
  trace?: TurnTrace;
};

export type TurnRun = RunInput & {
  trace: TurnTrace;
  ctx: HookContext;
  scope: StageScope;
  /** What the model was sent, by section: kept with the turn's end whatever the outcome. */
  context: ContextRecord | null;
};

export function startRun(input: RunInput): TurnRun {
  const { turn, workstream, viewer, log } = input;
  const trace =
    input.trace ??
    new TurnTrace({
      turnId: turn.id,
      workstreamId: workstream.id,
      organizationId: workstream.organizationId,
      run: input.resumed ? "continue" : "start",
    });
  return {
    ...input,
    trace,
    ctx: {
      turnId: turn.id,
      workstreamId: workstream.id,
      organizationId: workstream.organizationId,
      userId: viewer.userId,
    },
    scope: { turnId: turn.id, status: (status) => log.append(statusChunk(turn.id, status)), trace },
    context: null,
  };
}
