"use client";
// The chat's state: the messages are useChat's, streamed over the workstream transport; one
// store (lib/chat-client/chat-state) holds what is the page's own: the turn folded from its
// status parts, the pending send, the connection, compaction and Stop. The actions are Send,
// Stop, Retry, Reconnect and the approval answers. A turn running when the page loads is
// resumed; useWorkstreamSync follows what happens elsewhere.
import { useChat } from "@ai-sdk/react";
import { generateId } from "ai";
import { useEffect, useEffectEvent, useMemo, useState, useSyncExternalStore } from "react";
import { stopTurn } from "@/lib/chat-client/api";
import {
  type ChatConnection,
  createChatStore,
  displayedTurn,
  initialChatState,
} from "@/lib/chat-client/chat-state";
import { messageText } from "@/lib/chat-client/history";
import { WorkstreamTransport } from "@/lib/chat-client/transport";
import { initialTurnView, isRunning } from "@/lib/chat-client/turn-status";
import type { UploadedFile } from "@/lib/chat-client/upload";
import type {
  ChatHistoryPage,
  ChatMessage,
  TurnStatusEvent,
  WorkstreamDescription,
} from "@/lib/chat-client/wire";
import { dataPartSchemas, messageMetadataSchema } from "@/lib/stream/ui-parts";
import { errorOutcome } from "./chat-notice";
import { type RevealActivity, useMessageRevealed } from "./reveal-activity";
import { useApprovalAnswers } from "./use-approval-answers";
import { useWorkstreamSync } from "./use-workstream-sync";

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
  notify,
  onSendAccepted,
  onSendRefused,
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

  // The transport's events come while a stream runs: effect events see the latest render.
  const onAccepted = useEffectEvent(({ messageId }: { messageId: string }) => {
    const sent = store.getState().sending;
    if (sent?.id === messageId) onSendAccepted(sent.text);
  });
  const onNothingToResume = useEffectEvent((description: WorkstreamDescription) => {
    dispatch({ type: "compacting", compacting: description.isCompacting });
    const current = store.getState();
    if (isRunning(current.turn) || description.latestOffset > current.knownOffset) {
      void sync.resync();
    }
  });
  const onLost = useEffectEvent(() => void sync.resync());
  const transport = useMemo(
    () =>
      new WorkstreamTransport({
        workstreamId,
        events: {
          onAccepted: (accepted) => onAccepted(accepted),
          onOffset: (offset) => dispatch({ type: "offset", offset }),
          onConnection: (connection) => dispatch({ type: "connection", connection }),
          onLost: () => onLost(),
          onNothingToResume: (description) => onNothingToResume(description),
        },
      }),
    [workstreamId, dispatch],
  );

  const onError = useEffectEvent((error: Error) => {
    const outcome = errorOutcome(error, store.getState().sending);
    const { refused, notice, next } = outcome;
    if (refused) {
      dispatch({ type: "send-refused", id: refused.id });
      if (!refused.retry) {
        setMessages((current) => current.filter((message) => message.id !== refused.id));
        onSendRefused(refused.text);
      }
    }
    if (notice) notify(notice.message, notice.tone);
    if (next?.action === "connection-lost") {
      dispatch({ type: "connection", connection: "lost" });
    } else if (next) {
      const look = next.action === "sync" ? sync.sync : sync.resync;
      // After the failed request has settled: useChat runs one request at a time.
      if (next.later) setTimeout(() => void look(), 0);
      else void look();
    }
  });

  // A turn running when the page loaded: followed from its first event.
  const [resumeOnLoad] = useState(
    () => workstream.activeTurn !== null && workstream.activeTurn.state !== "suspended",
  );
  const { messages, status, setMessages, sendMessage, resumeStream, clearError } =
    useChat<ChatMessage>({
      id: workstreamId,
      messages: history.messages,
      transport,
      resume: resumeOnLoad,
      messageMetadataSchema,
      dataPartSchemas,
      onData: (part) => {
        if (part.type === "data-status") dispatch({ type: "status", status: part.data });
      },
      onError: (error) => onError(error),
    });
  const streaming = status === "submitted" || status === "streaming";

  const sync = useWorkstreamSync({
    workstreamId,
    pageSize,
    store,
    transport,
    chat: { messages, streaming, setMessages, resumeStream },
    compacting: state.compacting,
    notify,
  });

  const approvals = useApprovalAnswers({
    workstreamId,
    turnId: state.turn.state === "suspended" ? state.turn.turnId : null,
    notify,
    afterAnswer: () => sync.sync(),
  });

  // useChat stays in "error" after a failed request; onError has handled it.
  useEffect(() => {
    if (status === "error") clearError();
  }, [status, clearError]);

  const send = (text: string, files: UploadedFile[] = []) => {
    const id = `msg_${generateId()}`;
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
  };

  const retryTarget = messages.findLast((message) => message.role === "user");
  const retry = () => {
    if (!retryTarget) return;
    dispatch({ type: "send", id: retryTarget.id, text: messageText(retryTarget), retry: true });
    // The same message again, files and all; what came after it goes.
    void sendMessage({ messageId: retryTarget.id, role: "user", parts: retryTarget.parts });
  };

  const stop = async () => {
    dispatch({ type: "stopping", stopping: true });
    try {
      const result = await stopTurn(workstreamId);
      if (result.turnId && result.state === "cancelled") {
        dispatch({ type: "stopped", turnId: result.turnId });
      }
    } catch (error) {
      notify(error instanceof Error ? error.message : "Couldn't stop the reply.");
    } finally {
      dispatch({ type: "stopping", stopping: false });
    }
  };

  const reconnect = () => {
    dispatch({ type: "connection", connection: "reconnecting" });
    void resumeStream();
  };

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
    approvals,
    stopping: state.stopping,
    liveMessageId,
    canRetry: turn.state === "failed" && Boolean(retryTarget) && (turn.error?.retryable ?? true),
    send,
    retry,
    stop,
    reconnect,
  };
}
