"use client";
// Keeps the conversation pinned to its newest message while the reader is at the bottom (as
// answers stream in and grow), and lets go as soon as they scroll up to read.
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

const NEAR_BOTTOM_PX = 96;

export function useStickToBottom(
  scrollRef: RefObject<HTMLElement | null>,
  contentRef: RefObject<HTMLElement | null>,
) {
  const pinned = useRef(true);
  const [awayFromBottom, setAwayFromBottom] = useState(false);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [scrollRef]);

  useEffect(() => {
    const element = scrollRef.current;
    const content = contentRef.current;
    if (!element || !content) return;
    const onScroll = () => {
      const near = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;
      pinned.current = near;
      setAwayFromBottom(!near);
    };
    const observer = new ResizeObserver(() => {
      if (pinned.current) element.scrollTop = element.scrollHeight;
      // A taller view or shorter content can bring the end into view without a scroll event;
      // "away from bottom" (and the Jump to latest button) must not outlive that.
      else onScroll();
    });
    element.addEventListener("scroll", onScroll, { passive: true });
    observer.observe(content);
    observer.observe(element);
    return () => {
      element.removeEventListener("scroll", onScroll);
      observer.disconnect();
    };
  }, [scrollRef, contentRef]);

  const scrollToBottom = useCallback(
    (behavior: ScrollBehavior = "auto") => {
      const element = scrollRef.current;
      if (!element) return;
      pinned.current = true;
      element.scrollTo({ top: element.scrollHeight, behavior });
    },
    [scrollRef],
  );

  return { awayFromBottom, scrollToBottom };
}
