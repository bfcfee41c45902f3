"use client";
// The chat's state: useChat over the workstream transport, the turn status folded from its
// events, the connection, and the actions Send, Stop, Retry and Reconnect. It resumes a running
// turn on load, and re-checks the workstream when the tab comes back or the network returns
// (a turn started in another tab is followed; what finished meanwhile is loaded).
import { useChat } from "@ai-sdk/react";
import { generateId } from "ai";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  fetchHistoryPage,
  fetchLastStatus,
  fetchWorkstream,
  stopTurn,
} from "@/lib/chat-client/api";
import type { ConnectionState } from "@/lib/chat-client/follow-stream";
import { mergeLatest, messageText } from "@/lib/chat-client/history";
import { WorkstreamTransport } from "@/lib/chat-client/transport";
import {
  IDLE_TURN,
  initialTurnView,
  isRunning,
  reduceTurnStatus,
  sendingTurn,
  type TurnView,
} from "@/lib/chat-client/turn-status";
import {
  asTurnStatus,
  type ChatHistoryPage,
  type ChatMessage,
  ChatRequestError,
  type TurnStatusEvent,
  type WorkstreamDescription,
} from "@/lib/chat-client/wire";
import { ERROR_SENTENCES } from "@/lib/http/errors";

export const PAGE_SIZE = 6;

export type ChatConnection = ConnectionState | "lost";

type Sending = { id: string; text: string; retry: boolean; before: TurnView };

export function useWorkstreamChat({
  workstream,
  history,
  lastStatus,
  notify,
  onSendAccepted,
  onSendRefused,
}: {
  workstream: WorkstreamDescription;
  history: ChatHistoryPage;
  lastStatus: TurnStatusEvent | null;
  notify: (message: string, tone?: "error" | "info") => void;
  /** The server took the message: its draft can go. */
  onSendAccepted: (text: string) => void;
  /** The server refused a new message: give its text back to the composer. */
  onSendRefused: (text: string) => void;
}) {
  const workstreamId = workstream.id;
  const [turn, setTurn] = useState(() =>
    initialTurnView({ activeTurn: workstream.activeTurn, lastStatus }),
  );
  const [connection, setConnection] = useState<ChatConnection>("connected");
  const [compacting, setCompacting] = useState(workstream.isCompacting);
  const [stopping, setStopping] = useState(false);
  const knownOffset = useRef(workstream.latestOffset);
  const sending = useRef<Sending | null>(null);
  const onSendAcceptedRef = useRef(onSendAccepted);
  onSendAcceptedRef.current = onSendAccepted;
  // Callbacks the transport and useChat call later; refreshed every render.
  const latest = useRef({
    resync: async () => {},
    onError: (_error: Error) => {},
    onNothingToResume: (_description: WorkstreamDescription) => {},
  });

  const transport = useMemo(
    () =>
      new WorkstreamTransport({
        workstreamId,
        events: {
          onAccepted: ({ messageId }) => {
            const sent = sending.current;
            if (sent?.id === messageId) onSendAcceptedRef.current(sent.text);
          },
          onOffset: (offset) => {
            knownOffset.current = Math.max(knownOffset.current, offset);
          },
          onConnection: setConnection,
          onLost: () => void latest.current.resync(),
          onNothingToResume: (description) => latest.current.onNothingToResume(description),
        },
      }),
    [workstreamId],
  );

  const chat = useChat<ChatMessage>({
    id: workstreamId,
    messages: history.messages,
    transport,
    onData: (part) => {
      if (part.type !== "data-status") return;
      const status = asTurnStatus(part.data);
      if (status) setTurn((view) => reduceTurnStatus(view, status));
    },
    onError: (error) => latest.current.onError(error),
  });
  const { messages, status, setMessages, sendMessage, resumeStream, clearError } = chat;
  const streaming = status === "submitted" || status === "streaming";
  const running = isRunning(turn) || streaming;

  const loadLatestPage = useCallback(async () => {
    const page = await fetchHistoryPage(workstreamId, { take: PAGE_SIZE });
    setMessages((current) => mergeLatest(current, page.messages));
  }, [workstreamId, setMessages]);

  const resync = useCallback(async () => {
    try {
      const description = await fetchWorkstream(workstreamId);
      setCompacting(description.isCompacting);
      await loadLatestPage();
      knownOffset.current = Math.max(knownOffset.current, description.latestOffset);
      if (!description.activeTurn) {
        const last = await fetchLastStatus(workstreamId, description.latestOffset);
        setTurn(last ? reduceTurnStatus(IDLE_TURN, last) : IDLE_TURN);
      }
    } catch (error) {
      console.warn("[chat] reloading the latest messages failed:", error);
      notify("Couldn't load the latest messages. Reload the page to see them.");
    }
  }, [workstreamId, loadLatestPage, notify]);

  const onError = (error: Error) => {
    const sent = sending.current;
    const code = error instanceof ChatRequestError ? error.code : "client:error";
    const refused =
      error instanceof ChatRequestError && sent !== null && error.messageId === sent.id;
    if (refused) {
      sending.current = null;
      setTurn(sent.before);
      if (!sent.retry) {
        setMessages((current) => current.filter((message) => message.id !== sent.id));
        onSendRefused(sent.text);
      }
    }
    if (code === "conflict:turn_active") {
      notify("A reply is already running here (perhaps from another tab). Following it.", "info");
      // After the failed request has settled: useChat runs one request at a time.
      setTimeout(() => void sync(), 0);
    } else if (code === "unavailable:compacting") {
      setCompacting(true);
      notify(error.message);
    } else if (code === "conflict:duplicate_message") {
      notify("That message was already sent.", "info");
      void resync();
    } else if (code === "network:failed" && refused) {
      notify("Couldn't reach the server. Your message is still in the box; send it again.");
    } else if (code === "network:lost" || code === "network:failed") {
      setConnection("lost");
    } else {
      notify(error.message);
    }
  };

  const onNothingToResume = (description: WorkstreamDescription) => {
    setCompacting(description.isCompacting);
    if (isRunning(turn) || description.latestOffset > knownOffset.current) void resync();
  };

  latest.current = { resync, onError, onNothingToResume };

  // useChat stays in "error" after a failed request; the error was handled above.
  useEffect(() => {
    if (status === "error") clearError();
  }, [status, clearError]);

  // A turn running when the page loaded: follow it from its first event.
  const initialTurn = useRef(workstream.activeTurn);
  useEffect(() => {
    const active = initialTurn.current;
    if (active && active.state !== "suspended") void resumeStream();
  }, [resumeStream]);

  const streamingRef = useRef(streaming);
  streamingRef.current = streaming;
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  /** Looks at the workstream again: follows a turn that runs, loads what happened meanwhile. */
  const sync = useCallback(async () => {
    if (streamingRef.current || document.visibilityState !== "visible") return;
    try {
      const description = await fetchWorkstream(workstreamId);
      setCompacting(description.isCompacting);
      const active = description.activeTurn;
      if (active && active.state !== "suspended") {
        // A turn started elsewhere: its question first, then its answer live.
        if (!messagesRef.current.some((message) => message.id === active.userMessageId)) {
          await loadLatestPage();
        }
        if (!streamingRef.current) void resumeStream();
      } else if (description.latestOffset > knownOffset.current) {
        await resync();
      }
    } catch (error) {
      console.warn("[chat] checking the workstream failed:", error);
    }
  }, [workstreamId, resumeStream, resync, loadLatestPage]);

  useEffect(() => {
    const onVisible = () => void sync();
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("online", onVisible);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("online", onVisible);
    };
  }, [sync]);

  // While compacting, look again every few seconds.
  useEffect(() => {
    if (!compacting) return;
    const timer = setInterval(() => void sync(), 4_000);
    return () => clearInterval(timer);
  }, [compacting, sync]);

  const send = useCallback(
    (text: string) => {
      const id = `msg_${generateId()}`;
      sending.current = { id, text, retry: false, before: turn };
      setTurn(sendingTurn());
      void sendMessage({ id, role: "user", parts: [{ type: "text", text }] });
    },
    [sendMessage, turn],
  );

  const retryTarget = messages.findLast((message) => message.role === "user");
  const retry = useCallback(() => {
    if (!retryTarget) return;
    const text = messageText(retryTarget);
    sending.current = { id: retryTarget.id, text, retry: true, before: turn };
    setTurn(sendingTurn());
    void sendMessage({ text, messageId: retryTarget.id });
  }, [retryTarget, sendMessage, turn]);

  const stop = useCallback(async () => {
    setStopping(true);
    try {
      const result = await stopTurn(workstreamId);
      const { turnId } = result;
      if (turnId && result.state === "cancelled") {
        setTurn((view) =>
          view.turnId === turnId && isRunning(view)
            ? reduceTurnStatus(view, {
                turnId,
                state: "cancelled",
                reason: ERROR_SENTENCES["turn:stopped"],
              })
            : view,
        );
      }
    } catch (error) {
      notify(error instanceof Error ? error.message : "Couldn't stop the reply.");
    } finally {
      setStopping(false);
    }
  }, [workstreamId, notify]);

  const reconnect = useCallback(() => {
    setConnection("reconnecting");
    void resumeStream();
  }, [resumeStream]);

  const last = messages.at(-1);
  const liveMessageId = streaming && last?.role === "assistant" ? last.id : null;

  return {
    messages,
    setMessages,
    turn,
    connection,
    compacting,
    running,
    stopping,
    liveMessageId,
    canRetry: turn.state === "failed" && Boolean(retryTarget) && (turn.error?.retryable ?? true),
    send,
    retry,
    stop,
    reconnect,
  };
}
