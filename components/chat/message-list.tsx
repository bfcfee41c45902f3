"use client";
// The conversation, oldest at the top. A sentinel above the first message loads the previous
// page when it comes near the viewport (plus a button for keyboards and slow scrolls). Above all
// of it, once paging has reached them, the markers of compacted ranges.
import { type ReactNode, type RefObject, useEffect, useRef } from "react";
import { Spinner } from "@/components/ui/spinner";
import type { ChatMessage } from "@/lib/chat-client/wire";
import { MessageItem } from "./message-item";

export function MessageList({
  messages,
  liveMessageId,
  stoppedMessageId,
  agentNames,
  defaultAgentName,
  hasMore,
  loadingOlder,
  onLoadOlder,
  scrollRef,
  contentRef,
  empty,
  footer,
  compacted,
}: {
  messages: ChatMessage[];
  liveMessageId: string | null;
  /** The answer the user has just stopped (its stored copy says so only after a reload). */
  stoppedMessageId: string | null;
  agentNames: Record<string, string>;
  defaultAgentName: string;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  scrollRef: RefObject<HTMLDivElement | null>;
  contentRef: RefObject<HTMLDivElement | null>;
  /** Shown when there is no message at all. */
  empty: ReactNode;
  footer?: ReactNode;
  /** The markers of compacted ranges, above the messages, once the list reaches back to them. */
  compacted?: ReactNode;
}) {
  const sentinel = useRef<HTMLDivElement>(null);

  // Re-created after every page, so a page that doesn't fill the screen asks for the next.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above (messages.length)
  useEffect(() => {
    const root = scrollRef.current;
    const target = sentinel.current;
    if (!root || !target || !hasMore) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadOlder();
      },
      { root, rootMargin: "400px 0px 0px 0px" },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, onLoadOlder, scrollRef, messages.length]);

  return (
    <div
      ref={scrollRef}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain [scrollbar-gutter:stable_both-edges]"
    >
      <div
        ref={contentRef}
        className="mx-auto flex min-h-full w-full max-w-3xl flex-col px-4 sm:px-6"
      >
        {hasMore ? (
          <div ref={sentinel} className="flex justify-center pt-4 pb-2">
            <button
              type="button"
              onClick={onLoadOlder}
              disabled={loadingOlder}
              className="inline-flex items-center gap-2 rounded-full px-3 py-1 text-xs font-medium text-fg-subtle transition-colors hover:bg-bg-muted hover:text-fg-muted disabled:hover:bg-transparent"
            >
              {loadingOlder ? <Spinner className="size-3.5" /> : null}
              {loadingOlder ? "Loading earlier messages…" : "Load earlier messages"}
            </button>
          </div>
        ) : null}
        {compacted ? <div className="pt-4">{compacted}</div> : null}
        {messages.length === 0 && !compacted ? (
          empty
        ) : (
          <section aria-label="Messages" className="flex flex-col pt-4 pb-2">
            {messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                live={message.id === liveMessageId}
                stopped={message.id === stoppedMessageId}
                agentName={
                  (message.metadata?.agentId && agentNames[message.metadata.agentId]) ||
                  defaultAgentName
                }
              />
            ))}
          </section>
        )}
        {footer}
      </div>
    </div>
  );
}
