"use client";
// What the agent keeps for one workstream (state, plan, memory block, the last turn's context),
// kept current while the panel shows it: loaded when shown, reloaded when the live channel says
// it changed (in this tab, another tab or by the agent), when the workstream's turn stops running
// (the turn's context record lands with its end) and after the channel reconnects. Reloads that
// arrive while one is under way are folded into one more.
import { useCallback, useEffect, useReducer, useRef } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";
import { ChatRequestError } from "@/lib/chat-client/wire";
import type { ContextView } from "@/lib/state/schema";
import { fetchContextView, type StateWrite } from "./context-api";

export type WorkstreamContext = {
  view: ContextView | null;
  /** Why the last load failed (the view, if any, is then the one loaded before); else null. */
  error: ChatRequestError | null;
  loading: boolean;
  reload: () => void;
  /** Takes the state the server answered an edit with (newer than the view's, or ignored). */
  applyStateWrite: (write: StateWrite) => void;
  /** Drops a memory note the server has deleted. */
  removeMemoryEntry: (entryId: string) => void;
};

type State = { view: ContextView | null; error: ChatRequestError | null; loading: boolean };

type Action =
  | { type: "loading" }
  | { type: "loaded"; view: ContextView }
  | { type: "failed"; error: ChatRequestError }
  | { type: "state-written"; write: StateWrite }
  | { type: "memory-entry-removed"; entryId: string };

/**
 * The state travels with a version; a load that started before an edit may answer after it, so
 * the newer state wins. The rest of the view (memory block, last turn) has no version: the latest
 * answer is taken, and the change that made it stale is announced and reloaded anyway.
 */
export function contextReducer(state: State, action: Action): State {
  switch (action.type) {
    case "loading":
      return { ...state, loading: true };
    case "loaded": {
      const current = state.view;
      const view =
        current && current.version > action.view.version
          ? { ...action.view, version: current.version, state: current.state }
          : action.view;
      return { view, error: null, loading: false };
    }
    case "failed":
      return { ...state, error: action.error, loading: false };
    case "state-written": {
      const current = state.view;
      if (!current || current.version > action.write.version) return state;
      return {
        ...state,
        view: {
          ...current,
          version: action.write.version,
          state: action.write.state,
          lastEvictions: action.write.lastEvictions,
        },
      };
    }
    case "memory-entry-removed": {
      const current = state.view;
      if (!current) return state;
      const entries = current.memoryBlock.entries.filter((entry) => entry.id !== action.entryId);
      return { ...state, view: { ...current, memoryBlock: { ...current.memoryBlock, entries } } };
    }
  }
}

function asRequestError(error: unknown): ChatRequestError {
  if (error instanceof ChatRequestError) return error;
  return new ChatRequestError("internal:response", "The server sent an unexpected answer.");
}

export function useWorkstreamContext({
  workstreamId,
  enabled,
  running,
}: {
  workstreamId: string;
  /** Whether anything shows the context; nothing is loaded or followed while not. */
  enabled: boolean;
  /** Whether this tab sees a turn of the workstream running. */
  running: boolean;
}): WorkstreamContext {
  const [state, dispatch] = useReducer(contextReducer, { view: null, error: null, loading: false });
  const inFlight = useRef(false);
  const again = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const load = useCallback(() => {
    if (inFlight.current) {
      again.current = true;
      return;
    }
    inFlight.current = true;
    dispatch({ type: "loading" });
    fetchContextView(workstreamId)
      .then((view) => {
        if (mounted.current) dispatch({ type: "loaded", view });
      })
      .catch((error: unknown) => {
        console.warn("[context] loading the workstream context failed:", error);
        if (mounted.current) dispatch({ type: "failed", error: asRequestError(error) });
      })
      .finally(() => {
        inFlight.current = false;
        if (again.current && mounted.current) {
          again.current = false;
          load();
        }
      });
  }, [workstreamId]);

  // Shown (again): load, since changes are followed only while shown.
  useEffect(() => {
    if (enabled) load();
  }, [enabled, load]);

  // The agent may have changed the state during the turn, and the turn's context record is
  // written as it ends: reload when this tab sees it stop.
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running && enabled) load();
    wasRunning.current = running;
  }, [running, enabled, load]);

  useLiveEvents((event) => {
    if (!enabled) return;
    const changed =
      (event.type === "context" && event.workstreamId === workstreamId) ||
      (event.type === "workstream" &&
        event.reason === "running" &&
        event.workstream.id === workstreamId &&
        !event.workstream.isRunning) ||
      event.type === "reconnected" ||
      event.type === "refresh";
    if (changed) load();
  });

  const applyStateWrite = useCallback(
    (write: StateWrite) => dispatch({ type: "state-written", write }),
    [],
  );
  const removeMemoryEntry = useCallback(
    (entryId: string) => dispatch({ type: "memory-entry-removed", entryId }),
    [],
  );
  return {
    view: state.view,
    error: state.error,
    loading: state.loading,
    reload: load,
    applyStateWrite,
    removeMemoryEntry,
  };
}
