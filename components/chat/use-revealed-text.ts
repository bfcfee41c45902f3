"use client";
// The part of a streamed text that is on screen. A text first seen while its message streams
// is revealed step by step (lib/chat-client/reveal); anything else — history, or everything
// for people who prefer reduced motion — shows whole at once. An animated text reports how much
// of it is shown (reveal-activity), before the browser paints, so the turn's status can wait.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { DEFAULT_REVEAL, Revealer } from "@/lib/chat-client/reveal";
import { useRevealActivity } from "./reveal-activity";

function prefersReducedMotion(): boolean {
  return (
    typeof window !== "undefined" && window.matchMedia("(prefers-reduced-motion: reduce)").matches
  );
}

export function useRevealedText(text: string, streaming: boolean, key: string): string {
  // Decided once, when the text first renders: history never animates.
  const [animate] = useState(() => streaming && !prefersReducedMotion());
  const [shown, setShown] = useState(animate ? 0 : text.length);
  const revealer = useRef<Revealer | null>(null);
  const activity = useRevealActivity();

  useEffect(() => {
    if (!animate) return;
    const current = new Revealer(setShown, DEFAULT_REVEAL);
    revealer.current = current;
    return () => {
      current.dispose();
      revealer.current = null;
    };
  }, [animate]);

  useEffect(() => {
    revealer.current?.update(text);
  }, [text]);

  useLayoutEffect(() => {
    if (animate) activity?.report(key, shown);
  }, [activity, key, animate, shown]);
  useLayoutEffect(() => () => activity?.forget(key), [activity, key]);

  return animate ? text.slice(0, shown) : text;
}
