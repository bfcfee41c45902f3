"use client";
// Page-wide keys of the chat: "/" focuses the composer (unless you are typing somewhere),
// Escape stops a running turn (unless a dialog is open, which Escape closes instead).
import { type RefObject, useEffect, useRef } from "react";

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

export function useChatShortcuts({
  composerRef,
  running,
  onStop,
}: {
  composerRef: RefObject<HTMLTextAreaElement | null>;
  running: boolean;
  onStop: () => void;
}) {
  const state = useRef({ running, onStop });
  state.current = { running, onStop };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (document.querySelector("dialog[open], [aria-modal='true']")) return;
      if (event.key === "Escape" && state.current.running) {
        event.preventDefault();
        state.current.onStop();
        return;
      }
      const plain = !event.metaKey && !event.ctrlKey && !event.altKey;
      if (event.key === "/" && plain && !isTypingTarget(event.target)) {
        event.preventDefault();
        composerRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [composerRef]);
}
