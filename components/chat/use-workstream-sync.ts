"use client";
// Keeps the page in step with the workstream when something happened elsewhere: a turn started
// in another tab or on another server is followed live, and what finished meanwhile is loaded.
// It looks again when the tab comes back, the network returns, the live channel reconnects or
// says an approval was answered or a waiting turn went on, and every few seconds while the
// workstream compacts.
import { useEffect, useEffectEvent, useRef } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";
import { fetchHistoryPage, fetchWorkstream } from "@/lib/chat-client/api";
import type { ChatStore } from "@/lib/chat-client/chat-state";
import { mergeLatest } from "@/lib/chat-client/history";
import type { WorkstreamTransport } from "@/lib/chat-client/transport";
import type { ChatMessage } from "@/lib/chat-client/wire";

type Chat = {
  messages: ChatMessage[];
  streaming: boolean;
  setMessages: (update: (current: ChatMessage[]) => ChatMessage[]) => void;
  resumeStream: () => Promise<void>;
};

export function useWorkstreamSync({
  workstreamId,
  pageSize,
  store,
  transport,
  chat,
  compacting,
  notify,
}: {
  workstreamId: string;
  /** A compaction runs: look again every few seconds. */
  compacting: boolean;
  pageSize: number;
  store: ChatStore;
  transport: WorkstreamTransport;
  chat: Chat;
  notify: (message: string, tone?: "error" | "info") => void;
}) {
  const { dispatch } = store;

  /** The latest page of history in place of what is on screen, but not older than the stream. */
  const loadLatestPage = useEffectEvent(async () => {
    const mark = transport.mark();
    const page = await fetchHistoryPage(workstreamId, { take: pageSize });
    chat.setMessages((current) =>
      mergeLatest(
        current,
        page.messages.map((message) =>
          transport.changedSince(message.id, mark)
            ? (current.find((item) => item.id === message.id) ?? message)
            : message,
        ),
      ),
    );
    return page;
  });

  /** Reloads the latest messages and how the workstream stands. */
  const resync = useEffectEvent(async () => {
    try {
      const description = await fetchWorkstream(workstreamId);
      dispatch({ type: "compacting", compacting: description.isCompacting });
      await loadLatestPage();
      dispatch({ type: "offset", offset: description.latestOffset });
      if (!description.activeTurn) {
        dispatch({
          type: "settled",
          last: description.lastTurn,
          latestOffset: description.latestOffset,
        });
      }
    } catch (error) {
      console.warn("[chat] reloading the latest messages failed:", error);
      notify("Couldn't load the latest messages. Reload the page to see them.");
    }
  });

  const look = useEffectEvent(async () => {
    if (chat.streaming || document.visibilityState !== "visible") return;
    try {
      const description = await fetchWorkstream(workstreamId);
      dispatch({ type: "compacting", compacting: description.isCompacting });
      const active = description.activeTurn;
      if (active && active.state !== "suspended") {
        // A turn started elsewhere: its question first, then its answer live. A turn that went
        // on after its approvals continues the answer as history holds it: that copy first.
        const known = chat.messages.some((message) => message.id === active.userMessageId);
        if (!known || active.resumedOffset !== null) await loadLatestPage();
        followWhenIdle();
      } else if (description.latestOffset > store.getState().knownOffset) {
        await resync();
      }
    } catch (error) {
      console.warn("[chat] checking the workstream failed:", error);
    }
  });

  // After the page took the history page: the resume continues the copy now on screen.
  const followWhenIdle = useEffectEvent(() => {
    if (!chat.streaming) void chat.resumeStream();
  });

  // One look at a time: answers, live events and the tab coming back may all ask at once, and
  // two replays of a turn going on would build its answer twice.
  const looking = useRef<{ again: boolean } | null>(null);
  const sync = useEffectEvent(async () => {
    if (looking.current) {
      looking.current.again = true;
      return;
    }
    looking.current = { again: false };
    try {
      do {
        looking.current.again = false;
        await look();
      } while (looking.current.again);
    } finally {
      looking.current = null;
    }
  });

  useEffect(() => {
    const onVisible = () => void sync();
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("online", onVisible);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("online", onVisible);
    };
  }, []);

  useLiveEvents((event) => {
    if (event.type === "reconnected") {
      void sync();
      return;
    }
    if (event.type === "workstream" && event.workstream.id === workstreamId) {
      // The live channel says when a compaction starts and ends (polling below is the fallback).
      dispatch({ type: "compacting", compacting: event.workstream.isCompacting });
    }
    // An approval answered in another tab (or expired, or its turn stopped), or a waiting turn
    // going on elsewhere: look again.
    const mine =
      (event.type === "approval" && event.workstreamId === workstreamId) ||
      (event.type === "workstream" &&
        event.reason === "running" &&
        event.workstream.id === workstreamId &&
        store.getState().turn.state === "suspended");
    if (mine && !chat.streaming) void sync();
  });

  // While compacting, look again every few seconds.
  useEffect(() => {
    if (!compacting) return;
    const timer = setInterval(() => void sync(), 4_000);
    return () => clearInterval(timer);
  }, [compacting]);

  return { sync, resync };
}
