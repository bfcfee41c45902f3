// The turn event log's vocabulary. A logged event is one AI SDK UI-message chunk with the
// per-workstream offset it was committed under; status events are transient `data-status` chunks.
import type { UIMessageChunk } from "ai";

export type TurnStatus =
  | { state: "acknowledged" }
  | { state: "processing"; stage: string }
  | { state: "preamble"; text: string }
  | { state: "tool"; toolName: string }
  | { state: "suspended"; reason: string }
  | { state: "ready" }
  /** Something went wrong that the turn goes on without (not terminal). */
  | { state: "warning"; code: "retrieval:failed"; message: string }
  | {
      state: "error";
      code: string;
      /** The sentence of `code`, never an exception's text. */
      message: string;
      retryable: boolean;
      /** For a provider failure: its HTTP status and error type, nothing of its body. */
      providerStatus?: number;
      providerErrorType?: string;
      /** For a guard refusal: the hook's name (ours), not its reason. */
      hook?: string;
    }
  | { state: "cancelled"; reason: string };

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
