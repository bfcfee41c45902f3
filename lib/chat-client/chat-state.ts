// The chat page's client state as one reducer: the turn as the server reports it, the pending
// send, the connection, compaction, Stop, and the last event offset seen. The status the page
// shows is derived from it (`displayedTurn`): a turn the server calls completed reads as running
// until its answer is on screen, and once the page has shown it completed it stays completed.
// `createChatStore` holds the state outside React, so callbacks that fire later (the transport,
// timers) read the current state instead of the one their closure captured.

import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { IDLE_TURN, isOpen, reduceTurnStatus, sendingTurn, type TurnView } from "./turn-status";
import type { TurnStatusEvent } from "./wire";

export type ChatConnection = "connected" | "reconnecting" | "offline" | "lost";

/** A message on its way to the server, and the turn view to go back to if it is refused. */
export type Sending = { id: string; text: string; retry: boolean; before: TurnView };

export type ChatState = {
  turn: TurnView;
  connection: ChatConnection;
  compacting: boolean;
  stopping: boolean;
  sending: Sending | null;
  /** The highest event offset of this workstream the page has seen. */
  knownOffset: number;
  /** The turn whose completion the page has shown: it never reads as running again. */
  completionShown: string | null;
};

export type ChatAction =
  | { type: "status"; status: TurnStatusEvent }
  | { type: "send"; id: string; text: string; retry: boolean }
  | { type: "send-refused"; id: string }
  | { type: "offset"; offset: number }
  | { type: "connection"; connection: ChatConnection }
  | { type: "compacting"; compacting: boolean }
  | { type: "stopping"; stopping: boolean }
  | { type: "stopped"; turnId: string }
  | { type: "settled"; last: TurnStatusEvent | null; latestOffset: number }
  | { type: "completion-shown"; turnId: string };

export function initialChatState({
  turn,
  latestOffset,
  compacting,
}: {
  turn: TurnView;
  latestOffset: number;
  compacting: boolean;
}): ChatState {
  return {
    turn,
    connection: "connected",
    compacting,
    stopping: false,
    sending: null,
    knownOffset: latestOffset,
    // A turn that had ended when the page loaded is shown as it ended.
    completionShown: turn.state === "completed" ? turn.turnId : null,
  };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "status":
      return { ...state, turn: reduceTurnStatus(state.turn, action.status) };
    case "send":
      return {
        ...state,
        sending: { id: action.id, text: action.text, retry: action.retry, before: state.turn },
        turn: sendingTurn(),
      };
    case "send-refused":
      if (state.sending?.id !== action.id) return state;
      return { ...state, sending: null, turn: state.sending.before };
    case "offset":
      return action.offset > state.knownOffset ? { ...state, knownOffset: action.offset } : state;
    case "connection":
      return state.connection === action.connection
        ? state
        : { ...state, connection: action.connection };
    case "compacting":
      return state.compacting === action.compacting
        ? state
        : { ...state, compacting: action.compacting };
    case "stopping":
      return state.stopping === action.stopping ? state : { ...state, stopping: action.stopping };
    case "stopped":
      // Only the turn that was stopped (running or waiting for an approval), and only if no
      // later status already ended it.
      if (state.turn.turnId !== action.turnId || !isOpen(state.turn)) return state;
      return {
        ...state,
        turn: reduceTurnStatus(state.turn, {
          turnId: action.turnId,
          state: "cancelled",
          reason: ERROR_SENTENCES["turn:stopped"],
        }),
      };
    case "settled": {
      // No turn runs: the page shows how the last one ended.
      const turn = action.last ? reduceTurnStatus(IDLE_TURN, action.last) : IDLE_TURN;
      return { ...state, turn, knownOffset: Math.max(state.knownOffset, action.latestOffset) };
    }
    case "completion-shown":
      return state.completionShown === action.turnId
        ? state
        : { ...state, completionShown: action.turnId };
    default:
      return state;
  }
}

/**
 * The turn as the page shows it. The server's `completed` arrives with the last text, often
 * before the stream has closed and always before the reveal has put that text on screen: until
 * both have happened the turn still reads as running (writing). Once shown, completion stays.
 */
export function displayedTurn(
  state: ChatState,
  { streaming, answerRevealed }: { streaming: boolean; answerRevealed: boolean },
): TurnView {
  const { turn } = state;
  if (turn.state !== "completed" || state.completionShown === turn.turnId) return turn;
  if (!streaming && answerRevealed) return turn;
  return { ...turn, state: "active", activity: null };
}

export type ChatStore = {
  getState: () => ChatState;
  dispatch: (action: ChatAction) => void;
  subscribe: (listener: () => void) => () => void;
};

export function createChatStore(initial: ChatState): ChatStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = chatReducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
