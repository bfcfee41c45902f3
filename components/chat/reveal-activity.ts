"use client";
// Which streamed texts are still being revealed, so the status line says "completed" only once
// the answer is fully on screen (the stream usually ends before the reveal does).
import { createContext, useContext, useSyncExternalStore } from "react";

export type RevealActivity = {
  set(id: string, busy: boolean): void;
  subscribe(listener: () => void): () => void;
  busy(): boolean;
};

export function createRevealActivity(): RevealActivity {
  const busyIds = new Set<string>();
  const listeners = new Set<() => void>();
  return {
    set(id, busy) {
      const changed = busy ? !busyIds.has(id) : busyIds.has(id);
      if (!changed) return;
      if (busy) busyIds.add(id);
      else busyIds.delete(id);
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    busy: () => busyIds.size > 0,
  };
}

export const RevealActivityContext = createContext<RevealActivity | null>(null);

export function useRevealActivity(): RevealActivity | null {
  return useContext(RevealActivityContext);
}

export function useRevealing(activity: RevealActivity): boolean {
  return useSyncExternalStore(activity.subscribe, activity.busy, () => false);
}
