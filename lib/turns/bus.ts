// The in-process event bus (seed 004): stage, session, provider and tool events. Events are
// projections for observers; they never decide anything. The models issue attaches the hook
// registry (transform, guard, observer) to the same stage names.
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
  | { type: "TurnCompleted"; turnId: string; workstreamId: string; organizationId: string };

const emitter = processSingleton<EventEmitter>("bus", () => new EventEmitter().setMaxListeners(0));

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
