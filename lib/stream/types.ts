// The turn event log's vocabulary. A logged event is one AI SDK UI-message chunk with the
// per-workstream offset it was committed under; status events are transient `data-status` chunks.
import type { UIMessageChunk } from "ai";
import type { TurnStatus } from "./ui-parts";

export type { TurnStatus };

export type StatusChunk = {
  type: "data-status";
  data: TurnStatus & { turnId: string };
  transient: true;
};

export type LoggedChunk = UIMessageChunk | StatusChunk;

export type LoggedEvent = {
  workstreamId: string;
  offset: number;
  turnId: string;
  chunk: LoggedChunk;
};

export const TERMINAL_STATES = new Set(["ready", "error", "cancelled", "suspended"]);

export function statusChunk(turnId: string, status: TurnStatus): StatusChunk {
  return { type: "data-status", data: { ...status, turnId }, transient: true };
}

export function isTerminal(chunk: LoggedChunk): boolean {
  return chunk.type === "data-status" && TERMINAL_STATES.has((chunk as StatusChunk).data.state);
}
