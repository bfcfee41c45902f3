"use client";
// Older history, a page at a time by cursor, as the reader scrolls up. The messages go in
// above the ones on screen and the view stays exactly where it was.
import { type RefObject, useCallback, useLayoutEffect, useRef, useState } from "react";
import { fetchHistoryPage } from "@/lib/chat-client/api";
import { prependOlder } from "@/lib/chat-client/history";
import type { ChatHistoryPage, ChatMessage } from "@/lib/chat-client/wire";

export function useOlderHistory({
  workstreamId,
  initial,
  pageSize,
  messageCount,
  setMessages,
  scrollRef,
  notify,
}: {
  workstreamId: string;
  initial: Pick<ChatHistoryPage, "prevCursor" | "hasMore">;
  pageSize: number;
  messageCount: number;
  setMessages: (update: (current: ChatMessage[]) => ChatMessage[]) => void;
  scrollRef: RefObject<HTMLElement | null>;
  notify: (message: string) => void;
}) {
  const [cursor, setCursor] = useState(initial.prevCursor);
  const [hasMore, setHasMore] = useState(initial.hasMore && initial.prevCursor !== null);
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);
  // Distance from the content's end to the viewport's top, kept across a prepend.
  const keep = useRef<number | null>(null);

  const loadOlder = useCallback(async () => {
    if (busy.current || !hasMore || !cursor) return;
    busy.current = true;
    setLoading(true);
    try {
      const page = await fetchHistoryPage(workstreamId, {
        beforeMessageId: cursor,
        take: pageSize,
      });
      const element = scrollRef.current;
      if (element) keep.current = element.scrollHeight - element.scrollTop;
      setMessages((current) => prependOlder(current, page.messages));
      setCursor(page.prevCursor);
      setHasMore(page.hasMore && page.prevCursor !== null);
    } catch (error) {
      console.warn("[chat] loading older messages failed:", error);
      notify("Couldn't load older messages. Scroll up to try again.");
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }, [workstreamId, cursor, hasMore, pageSize, setMessages, scrollRef, notify]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the older page is in
  useLayoutEffect(() => {
    const element = scrollRef.current;
    const distance = keep.current;
    if (!element || distance === null) return;
    keep.current = null;
    element.scrollTop = element.scrollHeight - distance;
  }, [messageCount, scrollRef]);

  return { hasMore, loading, loadOlder };
}
