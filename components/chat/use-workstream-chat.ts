"use client";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useLiveEvents } from "@/components/live/use-live-events";
import { answerApproval, fetchHistoryPage, fetchWorkstream, stopTurn } from "@/lib/chat-client/api";
import {
  type ChatConnection,
  createChatStore,
  displayedTurn,
  initialChatState,
} from "@/lib/chat-client/chat-state";
import { mergeLatest, messageText } from "@/lib/chat-client/history";
import { randomId } from "@/lib/chat-client/message-stream";
import { WorkstreamTransport } from "@/lib/chat-client/transport";
import { initialTurnView, isRunning } from "@/lib/chat-client/turn-status";
// The chat's state: the messages and their stream (useChatSession over the workstream
// transport), and one store (lib/chat-client/
// chat-state) for everything else: the turn folded from its events, the pending send, the
// connection, compaction and Stop. The actions are Send, Stop, Retry and Reconnect. It resumes a
// running turn on load, and re-checks the workstream when the tab comes back or the network
// returns (a turn started in another tab is followed; what finished meanwhile is loaded).
import type { UploadedFile } from "@/lib/chat-client/upload";
import {
  asTurnStatus,
  type ChatHistoryPage,
  ChatRequestError,
  type TurnStatusEvent,
  type WorkstreamDescription,
} from "@/lib/chat-client/wire";
import { type RevealActivity, useMessageRevealed } from "./reveal-activity";
import { useChatSession } from "./use-chat-session";

export type { ChatConnection };

type Callbacks = {
  notify: (message: string, tone?: "error" | "info") => void;
  /** The server took the message: its draft can go. */
  onSendAccepted: (text: string) => void;
  /** The server refused a new message: give its text (and its files) back to the composer. */
  onSendRefused: (text: string) => void;
};

export function useWorkstreamChat({
  workstream,
  history,
  lastStatus,
  pageSize,
  revealActivity,
  ...callbacks
}: {
  workstream: WorkstreamDescription;
  history: ChatHistoryPage;
  lastStatus: TurnStatusEvent | null;
  /** Messages per history page (the server's setting, handed down by the page). */
  pageSize: number;
  /** How much of each streamed text is on screen. */
  revealActivity: RevealActivity;
} & Callbacks) {
  const workstreamId = workstream.id;
  const [store] = useState(() =>
    createChatStore(
      initialChatState({
        turn: initialTurnView({ activeTurn: workstream.activeTurn, lastStatus }),
        latestOffset: workstream.latestOffset,
        compacting: workstream.isCompacting,
      }),
    ),
  );
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const { dispatch } = store;
  // What the last render saw, for callbacks that run later (the transport's, timers, events):
  // the parent's callbacks, and the session's messages and status.
  const rendered = useRef({
    ...callbacks,
    messages: history.messages,
    streaming: false,
    resync: async () => {},
    sync: async () => {},
  });

  const transport = useMemo(
    () =>
      new WorkstreamTransport({
        workstreamId,
        events: {
          onAccepted: ({ messageId }) => {
            const sent = store.getState().sending;
            if (sent?.id === messageId) rendered.current.onSendAccepted(sent.text);
          },
          onOffset: (offset) => dispatch({ type: "offset", offset }),
          onConnection: (connection) => dispatch({ type: "connection", connection }),
          onLost: () => void rendered.current.resync(),
          onNothingToResume: (description) => {
            dispatch({ type: "compacting", compacting: description.isCompacting });
            const current = store.getState();
            if (isRunning(current.turn) || description.latestOffset > current.knownOffset) {
              void rendered.current.resync();
            }
          },
        },
      }),
    [workstreamId, store, dispatch],
  );

  const onError = (error: Error) => {
    const { notify, onSendRefused } = rendered.current;
    const sent = store.getState().sending;
    const code = error instanceof ChatRequestError ? error.code : "client:error";
    const refused =
      error instanceof ChatRequestError && sent !== null && error.messageId === sent.id;
    if (refused) {
      dispatch({ type: "send-refused", id: sent.id });
      if (!sent.retry) {
        setMessages((current) => current.filter((message) => message.id !== sent.id));
        onSendRefused(sent.text);
      }
    }
    if (
      code === "conflict:turn_active" &&
      error instanceof ChatRequestError &&
      error.details.approvalId
    ) {
      notify(
        "The agent is waiting for your approval above. Answer it, or stop, to send more.",
        "info",
      );
      setTimeout(() => void rendered.current.resync(), 0);
    } else if (code === "conflict:turn_active") {
      notify("A reply is already running here (perhaps from another tab). Following it.", "info");
      // After the failed request has settled: a new request would replace it.
      setTimeout(() => void rendered.current.sync(), 0);
    } else if (code === "conflict:duplicate_message") {
      notify("That message was already sent.", "info");
      void rendered.current.resync();
    } else if (code === "network:failed" && refused) {
      notify("Couldn't reach the server. Your message is still in the box; send it again.");
    } else if (code === "network:lost" || code === "network:failed") {
      dispatch({ type: "connection", connection: "lost" });
    } else {
      notify(error.message);
    }
  };

  const chat = useChatSession({
    id: workstreamId,
    messages: history.messages,
    transport,
    onData: (part) => {
      if (part.type !== "data-status") return;
      const status = asTurnStatus(part.data);
      if (status) dispatch({ type: "status", status });
    },
    onError,
  });
  const {
    messages,
    status,
    setMessages,
    sendMessage,
    resumeStream,
    clearError,
    streamMark,
    fresherOnScreen,
  } = chat;
  const streaming = status === "submitted" || status === "streaming";
  rendered.current = { ...rendered.current, ...callbacks, messages, streaming };

  const loadLatestPage = useCallback(async () => {
    const mark = streamMark();
    const page = await fetchHistoryPage(workstreamId, { take: pageSize });
    setMessages((current) => mergeLatest(current, fresherOnScreen(page.messages, mark)));
    return page;
  }, [workstreamId, pageSize, setMessages, streamMark, fresherOnScreen]);

  const resync = useCallback(async () => {
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
      rendered.current.notify("Couldn't load the latest messages. Reload the page to see them.");
    }
  }, [workstreamId, loadLatestPage, dispatch]);

  /** Looks at the workstream again: follows a turn that runs, loads what happened meanwhile. */
  // One look at a time: answers, live events and the tab coming back may all ask at once, and
  // two replays of a turn going on would build its answer twice.
  const looking = useRef<{ again: boolean } | null>(null);
  const sync = useCallback(async () => {
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

    async function look() {
      if (rendered.current.streaming || document.visibilityState !== "visible") return;
      try {
        const description = await fetchWorkstream(workstreamId);
        dispatch({ type: "compacting", compacting: description.isCompacting });
        const active = description.activeTurn;
        if (active && active.state !== "suspended") {
          // A turn started elsewhere: its question first, then its answer live. A turn that
          // went on after its approvals continues the answer history holds: built on that copy.
          const known = rendered.current.messages.some(
            (message) => message.id === active.userMessageId,
          );
          const page = !known || active.resumedOffset !== null ? await loadLatestPage() : null;
          const kept =
            active.resumedOffset !== null
              ? page?.messages.findLast((message) => message.role === "assistant")
              : undefined;
          if (!rendered.current.streaming) void resumeStream(kept);
        } else if (description.latestOffset > store.getState().knownOffset) {
          await resync();
        }
      } catch (error) {
        console.warn("[chat] checking the workstream failed:", error);
      }
    }
  }, [workstreamId, resumeStream, resync, loadLatestPage, store, dispatch]);
  rendered.current.resync = resync;
  rendered.current.sync = sync;

  // An approval answered in another tab (or expired, or its turn stopped), or the workstream's
  // turn starting or ending elsewhere: look again.
  useLiveEvents((event) => {
    const mine =
      (event.type === "approval" && event.workstreamId === workstreamId) ||
      (event.type === "workstream" &&
        event.reason === "running" &&
        event.workstream.id === workstreamId &&
        store.getState().turn.state === "suspended");
    if (mine && !rendered.current.streaming) void rendered.current.sync();
  });

  const [answering, setAnswering] = useState<string | null>(null);
  const answerOne = useCallback(
    async ({
      approvalId,
      approved,
      reason,
      grantDays,
    }: {
      approvalId: string;
      approved: boolean;
      reason: string;
      grantDays?: number;
    }) => {
      const turnId = store.getState().turn.turnId;
      if (!turnId) return;
      setAnswering(approvalId);
      try {
        await answerApproval(workstreamId, {
          turnId,
          approvalId,
          approved,
          ...(reason ? { reason } : {}),
          ...(grantDays ? { grantDays } : {}),
        });
      } catch (error) {
        const code = error instanceof ChatRequestError ? error.code : "client:error";
        rendered.current.notify(
          code === "conflict:approval_answered"
            ? "That approval was already answered (perhaps in another tab)."
            : error instanceof Error
              ? error.message
              : "Couldn't send your answer.",
          code === "conflict:approval_answered" ? "info" : "error",
        );
      } finally {
        setAnswering(null);
      }
      // The answer is in history now; a turn that went on is followed from there.
      await rendered.current.sync();
    },
    [workstreamId, store],
  );

  // The session stays in "error" after a failed request; the error was handled above.
  useEffect(() => {
    if (status === "error") clearError();
  }, [status, clearError]);

  // A turn running when the page loaded: follow it from its first event.
  const [initialTurn] = useState(workstream.activeTurn);
  useEffect(() => {
    if (initialTurn && initialTurn.state !== "suspended") void resumeStream();
  }, [initialTurn, resumeStream]);

  useEffect(() => {
    const onVisible = () => void sync();
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("online", onVisible);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("online", onVisible);
    };
  }, [sync]);

  // The live channel says when a compaction starts and ends (and polling below is the fallback).
  useLiveEvents((event) => {
    if (event.type === "workstream" && event.workstream.id === workstreamId) {
      dispatch({ type: "compacting", compacting: event.workstream.isCompacting });
    } else if (event.type === "reconnected") {
      void rendered.current.sync();
    }
  });

  // While compacting, look again every few seconds.
  useEffect(() => {
    if (!state.compacting) return;
    const timer = setInterval(() => void sync(), 4_000);
    return () => clearInterval(timer);
  }, [state.compacting, sync]);

  const send = useCallback(
    (text: string, files: UploadedFile[] = []) => {
      const id = `msg_${randomId()}`;
      dispatch({ type: "send", id, text, retry: false });
      // Files go by id: the server checks them and signs their URLs afresh for every turn.
      const fileParts = files.map((file) => ({
        type: "file" as const,
        mediaType: file.mediaType,
        filename: file.name,
        url: `file:${file.id}`,
      }));
      void sendMessage({
        id,
        role: "user",
        parts: [...fileParts, ...(text ? [{ type: "text" as const, text }] : [])],
      });
    },
    [sendMessage, dispatch],
  );

  const retryTarget = messages.findLast((message) => message.role === "user");
  const retry = useCallback(() => {
    if (!retryTarget) return;
    const text = messageText(retryTarget);
    dispatch({ type: "send", id: retryTarget.id, text, retry: true });
    // The same message again, files and all.
    void sendMessage({ messageId: retryTarget.id });
  }, [retryTarget, sendMessage, dispatch]);

  const stop = useCallback(async () => {
    dispatch({ type: "stopping", stopping: true });
    try {
      const result = await stopTurn(workstreamId);
      if (result.turnId && result.state === "cancelled") {
        dispatch({ type: "stopped", turnId: result.turnId });
      }
    } catch (error) {
      rendered.current.notify(error instanceof Error ? error.message : "Couldn't stop the reply.");
    } finally {
      dispatch({ type: "stopping", stopping: false });
    }
  }, [workstreamId, dispatch]);

  const reconnect = useCallback(() => {
    dispatch({ type: "connection", connection: "reconnecting" });
    void resumeStream();
  }, [resumeStream, dispatch]);

  // The answer of the latest turn: the last message, when it is the assistant's.
  const last = messages.at(-1);
  const answer = last?.role === "assistant" ? last : undefined;
  const answerRevealed = useMessageRevealed(revealActivity, answer);
  const turn = displayedTurn(state, { streaming, answerRevealed });
  useEffect(() => {
    if (turn.state === "completed" && turn.turnId) {
      dispatch({ type: "completion-shown", turnId: turn.turnId });
    }
  }, [turn.state, turn.turnId, dispatch]);

  // An answer stays "live" (animated, no footer yet) while it streams and until its reveal has
  // caught up.
  const liveMessageId = answer && (streaming || !answerRevealed) ? answer.id : null;

  return {
    messages,
    setMessages,
    turn,
    connection: state.connection,
    compacting: state.compacting,
    /** A message is sent and the server holds it until the compaction is done. */
    waitingForCompaction: state.compacting && state.turn.activity?.kind === "sending",
    running: isRunning(state.turn) || streaming,
    /** The turn waits for the owner's answer to an approval. */
    suspended: state.turn.state === "suspended" && !streaming,
    approvals: {
      turnId: state.turn.state === "suspended" ? state.turn.turnId : null,
      answering,
      answer: answerOne,
    },
    stopping: state.stopping,
    liveMessageId,
    canRetry: turn.state === "failed" && Boolean(retryTarget) && (turn.error?.retryable ?? true),
    send,
    retry,
    stop,
    reconnect,
  };
}
