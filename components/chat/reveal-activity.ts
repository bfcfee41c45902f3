"use client";
// How much of each animated text is on screen, so the chat can tell whether an answer is fully
// shown. The check compares against the text the page renders right now, never against a flag
// set after an earlier render: a last chunk that arrives together with the turn's end counts as
// hidden until the reveal has shown it. Texts that were never animated (history, reduced motion)
// are not registered and count as shown.
import { createContext, useCallback, useContext, useSyncExternalStore } from "react";
import type { ChatMessage } from "@/lib/chat-client/wire";

export type RevealActivity = {
  report(key: string, shown: number): void;
  forget(key: string): void;
  shown(key: string): number | undefined;
  subscribe(listener: () => void): () => void;
};

export function createRevealActivity(): RevealActivity {
  const shown = new Map<string, number>();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    report(key, length) {
      if (shown.get(key) === length) return;
      shown.set(key, length);
      notify();
    },
    forget(key) {
      if (shown.delete(key)) notify();
    },
    shown: (key) => shown.get(key),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The key of one text part of one message. */
export function revealKey(messageId: string, partIndex: number): string {
  return `${messageId}/${partIndex}`;
}

export function isMessageRevealed(activity: RevealActivity, message: ChatMessage): boolean {
  return message.parts.every((part, index) => {
    if (part.type !== "text") return true;
    const shown = activity.shown(revealKey(message.id, index));
    return shown === undefined || shown >= part.text.length;
  });
}

export const RevealActivityContext = createContext<RevealActivity | null>(null);

export function useRevealActivity(): RevealActivity | null {
  return useContext(RevealActivityContext);
}

/** Whether all of the message's text is on screen (true without a message). */
export function useMessageRevealed(
  activity: RevealActivity,
  message: ChatMessage | undefined,
): boolean {
  const read = useCallback(
    () => (message ? isMessageRevealed(activity, message) : true),
    [activity, message],
  );
  return useSyncExternalStore(activity.subscribe, read, read);
}
