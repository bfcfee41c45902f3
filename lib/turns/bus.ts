// The in-process event bus: stage, session, provider and tool events. Events are projections
// for observers; they never decide anything (hooks decide, at each stage's pre and post point).
import { EventEmitter } from "node:events";
import type { JobEvent } from "@/lib/jobs/define";
import { processSingleton } from "@/lib/kernel/singleton";
import type { TurnStatus } from "@/lib/stream/types";
import type { SummaryRow } from "@/lib/workstreams/summary";
import type { TurnTrace } from "./trace";

export const STAGES = [
  "RECEIVE_INPUT",
  "COMPOSE_REQUEST",
  "SEND_REQUEST",
  "STREAM_RESPONSE",
  "TOOL_CALL",
  "RENDER",
] as const;
export type Stage = (typeof STAGES)[number];

export type BusEvent =
  | {
      type: "SessionTurnStart";
      turnId: string;
      workstreamId: string;
      /** The workstream as the turn found it, for the live update (no re-read needed). */
      workstream?: SummaryRow;
    }
  | {
      /**
       * A run of the turn ended. Emitted by whoever closed the turn (its run, a stop of a
       * suspended turn, the reaper), so each terminal state is announced exactly once; a
       * suspension announces "suspended" and its continuation ends with its own.
       */
      type: "SessionTurnEnd";
      turnId: string;
      workstreamId: string;
      state: string;
      /** The workstream as the turn's closing transaction left it. */
      workstream?: SummaryRow;
      /** The post-turn event the closing transaction wrote for the job engine, if it wrote one. */
      queuedEvent?: JobEvent;
    }
  | { type: "StagePreFired"; turnId: string; stage: Stage }
  | { type: "StagePostFired"; turnId: string; stage: Stage; outcome: "ok" | "error" }
  | { type: "ProviderRequestStarted"; turnId: string; modelId: string; attempt: number }
  | { type: "ProviderTokensStreamed"; turnId: string; chars: number }
  | {
      type: "ProviderRequestCompleted";
      turnId: string;
      modelId: string;
      attempt: number;
      ms: number;
    }
  | {
      type: "ProviderRequestFailed";
      turnId: string;
      modelId: string;
      attempt: number;
      error: string;
    }
  | { type: "ToolInvocationProposed"; turnId: string; toolName: string; toolCallId: string }
  | { type: "ToolInvocationStarted"; turnId: string; toolName: string; toolCallId: string }
  | { type: "ToolInvocationSucceeded"; turnId: string; toolName: string; toolCallId: string }
  | {
      type: "ToolInvocationFailed";
      turnId: string;
      toolName: string;
      toolCallId: string;
      error: string;
    }
  | { type: "ToolInvocationCancelled"; turnId: string; toolName: string; toolCallId: string }
  | {
      type: "TurnCompleted";
      turnId: string;
      workstreamId: string;
      organizationId: string;
      /** The workstream as the turn's closing transaction left it. */
      workstream?: SummaryRow;
    };

const emitter = processSingleton("bus", () => new EventEmitter().setMaxListeners(0));

export const bus = {
  emit(event: BusEvent): void {
    emitter.emit("event", event);
  },
  on(listener: (event: BusEvent) => void): () => void {
    emitter.on("event", listener);
    return () => emitter.off("event", listener);
  },
};

/** What a stage needs from its turn: who it is for, and where its status goes. */
export type StageScope = {
  turnId: string;
  /** Writes the turn's status to its log; absent before the turn has a log (RECEIVE_INPUT). */
  status?: (status: TurnStatus) => void;
  /** Times the stages for the turn's record (absent for a stage run outside a turn's run). */
  trace?: TurnTrace;
};

/**
 * Runs one named stage, bracketed by StagePreFired / StagePostFired. The stage writes the turn's
 * status itself as it starts: "processing" with its name, or "tool" for a tool call. Its hooks'
 * pre and post points are run by the body (see hooks.ts `stagePoints`), which alone knows what
 * the stage acts upon.
 */
export async function stage<T>(
  scope: StageScope,
  name: Stage,
  body: () => Promise<T>,
  { toolName, toolCallId }: { toolName?: string; toolCallId?: string } = {},
): Promise<T> {
  bus.emit({ type: "StagePreFired", turnId: scope.turnId, stage: name });
  // RENDER ends with the closing transaction that writes the record, so that statement times it.
  const timed = name === "RENDER" ? undefined : scope.trace?.begin(name, { toolName, toolCallId });
  if (name === "TOOL_CALL" && toolName) scope.status?.({ state: "tool", toolName });
  else if (name !== "RENDER" && name !== "RECEIVE_INPUT") {
    scope.status?.({ state: "processing", stage: name });
  }
  try {
    const result = await body();
    timed?.("ok");
    bus.emit({ type: "StagePostFired", turnId: scope.turnId, stage: name, outcome: "ok" });
    return result;
  } catch (error) {
    timed?.("error");
    bus.emit({ type: "StagePostFired", turnId: scope.turnId, stage: name, outcome: "error" });
    throw error;
  }
}
