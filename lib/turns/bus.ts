// The in-process event bus (seed 004): stage, session, provider and tool events. Events are
// projections for observers; they never decide anything (hooks.ts decides). Each running turn
// feeds its status events (processing with its stage, using a tool) from this bus.
import { EventEmitter } from "node:events";
import { processSingleton } from "@/lib/server/singleton";

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
  | { type: "SessionTurnStart"; turnId: string; workstreamId: string }
  | { type: "SessionTurnEnd"; turnId: string; workstreamId: string; state: string }
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
  | { type: "TurnCompleted"; turnId: string; workstreamId: string; organizationId: string };

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

/** Runs one named stage, bracketed by StagePreFired / StagePostFired. */
export async function stage<T>(turnId: string, name: Stage, body: () => Promise<T>): Promise<T> {
  bus.emit({ type: "StagePreFired", turnId, stage: name });
  try {
    const result = await body();
    bus.emit({ type: "StagePostFired", turnId, stage: name, outcome: "ok" });
    return result;
  } catch (error) {
    bus.emit({ type: "StagePostFired", turnId, stage: name, outcome: "error" });
    throw error;
  }
}
