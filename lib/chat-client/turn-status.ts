// The turn as the status line shows it, folded from the turn's status events (acknowledged →
// processing / preamble / tool → ready | error | cancelled). `state` uses the
// turn states of the server (pending, active, suspended, completed, cancelled, failed), plus
// `idle` before the workstream's first turn.
import type { TurnStatusEvent } from "./wire";

export type TurnState =
  | "idle"
  | "pending"
  | "active"
  | "suspended"
  | "completed"
  | "cancelled"
  | "failed";

export type TurnActivity =
  | { kind: "sending" }
  | { kind: "acknowledged" }
  | { kind: "thinking"; stage: string }
  | { kind: "tool"; toolName: string }
  | { kind: "preamble"; text: string };

export type TurnError = { code: string; message: string; retryable: boolean };

/** Something the turn went on without (knowledge retrieval failed): shown until it ends. */
export type TurnWarning = { code: string; message: string };

export type TurnView = {
  state: TurnState;
  turnId: string | null;
  activity: TurnActivity | null;
  error: TurnError | null;
  /** Why a turn was cancelled or suspended. */
  reason: string | null;
  /** Warnings of this turn so far, each code once. */
  warnings: TurnWarning[];
};

export const IDLE_TURN: TurnView = {
  state: "idle",
  turnId: null,
  activity: null,
  error: null,
  reason: null,
  warnings: [],
};

// The server's sets (db/schema/turns.ts) come with drizzle's SQL helpers, which have no place
// in the browser bundle; these mirror them for the view's states.
/** A turn some process works on now. */
export const RUNNING_STATES: ReadonlySet<TurnState> = new Set(["pending", "active"]);
/** A turn that still holds the workstream: running, or waiting for a person. */
export const OPEN_STATES: ReadonlySet<TurnState> = new Set([...RUNNING_STATES, "suspended"]);

export function isRunning(view: TurnView): boolean {
  return RUNNING_STATES.has(view.state);
}

export function isOpen(view: TurnView): boolean {
  return OPEN_STATES.has(view.state);
}

export function reduceTurnStatus(view: TurnView, status: TurnStatusEvent): TurnView {
  // Warnings belong to their turn: they stay through its later events, never into the next.
  const warnings = view.turnId === status.turnId ? view.warnings : [];
  const base = { turnId: status.turnId, error: null, reason: null, warnings };
  switch (status.state) {
    case "warning":
      if (view.turnId !== status.turnId) return view;
      if (warnings.some((warning) => warning.code === status.code)) return view;
      return {
        ...view,
        warnings: [...warnings, { code: status.code, message: status.message }],
      };
    case "acknowledged":
      return { ...base, state: "pending", activity: { kind: "acknowledged" } };
    case "processing":
      // A preamble stays up through the stages that follow it (they are details of the same
      // preparation) until the agent uses a tool, writes, or says something else.
      if (view.turnId === status.turnId && view.activity?.kind === "preamble") {
        return { ...base, state: "active", activity: view.activity };
      }
      return { ...base, state: "active", activity: { kind: "thinking", stage: status.stage } };
    case "preamble":
      return { ...base, state: "active", activity: { kind: "preamble", text: status.text } };
    case "tool":
      return { ...base, state: "active", activity: { kind: "tool", toolName: status.toolName } };
    case "suspended":
      return { ...base, state: "suspended", activity: null, reason: status.reason };
    case "ready":
      return { ...base, state: "completed", activity: null };
    case "cancelled":
      return { ...base, state: "cancelled", activity: null, reason: status.reason };
    case "error":
      return {
        ...base,
        state: "failed",
        activity: null,
        error: { code: status.code, message: status.message, retryable: status.retryable },
      };
    default:
      return view;
  }
}

/** The view right after the user pressed Send, before the server answered. */
export function sendingTurn(): TurnView {
  return { ...IDLE_TURN, state: "pending", activity: { kind: "sending" } };
}

/** The view a page starts from: the running turn, or how the last one ended. */
export function initialTurnView({
  activeTurn,
  lastStatus,
}: {
  activeTurn: { id: string; state: string } | null;
  lastStatus: TurnStatusEvent | null;
}): TurnView {
  if (activeTurn) {
    const state: TurnState =
      activeTurn.state === "suspended"
        ? "suspended"
        : activeTurn.state === "pending"
          ? "pending"
          : "active";
    return {
      ...IDLE_TURN,
      state,
      turnId: activeTurn.id,
      activity: state === "active" ? { kind: "thinking", stage: "STREAM_RESPONSE" } : null,
    };
  }
  return lastStatus ? reduceTurnStatus(IDLE_TURN, lastStatus) : IDLE_TURN;
}
