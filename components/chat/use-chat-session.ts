"use client";
// The messages of one workstream and the request streaming into them: send a message, retry one,
// resume a running turn. It does what the page used of the AI SDK's useChat (same statuses, same
// message parts, one request at a time) over the workstream transport, without loading the SDK's
// runtime in the browser (see lib/chat-client/message-stream).
import type { UIMessageChunk } from "ai";
import { useCallback, useState, useSyncExternalStore } from "react";
import {
  applyChunk,
  type ChunkEffect,
  continuingMessage,
  randomId,
  snapshot,
  streamingMessage,
} from "@/lib/chat-client/message-stream";
import type { WorkstreamTransport } from "@/lib/chat-client/transport";
import type { ChatMessage } from "@/lib/chat-client/wire";

export type ChatStatus = "ready" | "submitted" | "streaming" | "error";
type Snapshot = { messages: ChatMessage[]; status: ChatStatus };
type Updater = ChatMessage[] | ((current: ChatMessage[]) => ChatMessage[]);

type Options = {
  id: string;
  messages: ChatMessage[];
  transport: WorkstreamTransport;
  onData?: (chunk: NonNullable<ChunkEffect["data"]>) => void;
  onError?: (error: Error) => void;
};

export class ChatSession {
  private current: Snapshot;
  private readonly listeners = new Set<() => void>();
  /** The request streaming into the messages; a newer one replaces it. */
  private active: AbortController | null = null;
  /** Counts the changes streams made to messages on screen, and each message's latest. */
  private streamed = 0;
  private streamedAt = new Map<string, number>();
  options: Options;

  constructor(options: Options) {
    this.options = options;
    this.current = { messages: options.messages, status: "ready" };
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = () => this.current;

  private set(next: Partial<Snapshot>) {
    this.current = { ...this.current, ...next };
    for (const listener of this.listeners) listener();
  }

  setMessages = (update: Updater) => {
    const messages = typeof update === "function" ? update(this.current.messages) : update;
    this.set({ messages });
  };

  /** Where the streams stand now: taken before a read of the server's messages starts. */
  mark = () => this.streamed;

  /**
   * The server's copies of `messages`, read since `mark`: a message a stream changed after the
   * read began keeps the copy on screen (the read may predate what the stream showed, e.g. an
   * answer finished while its older copy was on the way).
   */
  fresherOnScreen = (messages: ChatMessage[], mark: number): ChatMessage[] =>
    messages.map((message) =>
      (this.streamedAt.get(message.id) ?? 0) > mark
        ? (this.current.messages.find((item) => item.id === message.id) ?? message)
        : message,
    );

  clearError = () => {
    if (this.current.status === "error") this.set({ status: "ready" });
  };

  /** Sends a new user message, or (with `messageId`) sends an earlier one again: Retry. */
  sendMessage = async (
    message: { id: string; role: "user"; parts: ChatMessage["parts"] } | { messageId: string },
  ) => {
    const { messages } = this.current;
    if ("messageId" in message) {
      const index = messages.findIndex((item) => item.id === message.messageId);
      const again = messages[index];
      if (again?.role !== "user") return;
      // What came after the message goes: its answer is asked for again. The message itself
      // stays as it was (its text and its files), and goes to the server as it is.
      this.set({ messages: [...messages.slice(0, index), again] });
      await this.request({ resume: false, messageId: message.messageId });
    } else {
      this.set({ messages: [...messages, { ...message, metadata: undefined } as ChatMessage] });
      await this.request({ resume: false, messageId: message.id });
    }
  };

  /**
   * Follows the workstream's running turn, if there is one. A turn going on after its approvals
   * continues `kept` (the answer as history holds it), else the last answer on screen.
   */
  resumeStream = (kept?: ChatMessage) => this.request({ resume: true, kept });

  private async request({
    resume,
    messageId,
    kept: keptAnswer,
  }: {
    resume: boolean;
    messageId?: string;
    kept?: ChatMessage;
  }) {
    this.active?.abort();
    const controller = new AbortController();
    this.active = controller;
    const isCurrent = () => this.active === controller && !controller.signal.aborted;
    const { transport, id } = this.options;
    try {
      let stream: ReadableStream<UIMessageChunk> | null;
      // A turn going on after its approvals continues the last answer on screen.
      let continues = false;
      if (resume) {
        const resumed = await transport.resume({ abortSignal: controller.signal });
        stream = resumed?.stream ?? null;
        continues = resumed?.continues ?? false;
        if (!isCurrent()) {
          await stream?.cancel();
          return;
        }
        if (!stream) {
          this.set({ status: "ready" });
          return;
        }
        this.set({ status: "submitted" });
      } else {
        this.set({ status: "submitted" });
        stream = await transport.sendMessages({
          chatId: id,
          messages: this.current.messages,
          abortSignal: controller.signal,
          trigger: "submit-message",
          messageId,
        });
      }
      const kept = continues
        ? (keptAnswer ?? this.current.messages.findLast((m) => m.role === "assistant"))
        : null;
      const building = kept ? continuingMessage(kept) : streamingMessage(randomId());
      const reader = stream.getReader();
      const stopReading = () => {
        reader.cancel().catch((error: unknown) => {
          console.warn("[chat] closing the stream failed:", error);
        });
      };
      controller.signal.addEventListener("abort", stopReading, { once: true });
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (!isCurrent()) {
            stopReading();
            break;
          }
          const effect = applyChunk(building, value, { replay: resume });
          if (effect.data) this.options.onData?.(effect.data);
          if (effect.changed) this.show(building, value.type !== "start");
        }
      } finally {
        controller.signal.removeEventListener("abort", stopReading);
      }
      if (isCurrent()) this.set({ status: "ready" });
    } catch (error) {
      if (!isCurrent() || (error instanceof Error && error.name === "AbortError")) {
        if (this.active === controller) this.set({ status: "ready" });
        return;
      }
      const failure = error instanceof Error ? error : new Error(String(error));
      this.options.onError?.(failure);
      this.set({ status: "error" });
    } finally {
      if (this.active === controller) this.active = null;
    }
  }

  /** Puts the message being built on screen: in place of its earlier copy, or at the end. */
  private show(building: ReturnType<typeof streamingMessage>, streaming: boolean) {
    const message = snapshot(building);
    const { messages } = this.current;
    const index = messages.findLastIndex((item) => item.id === message.id);
    const next =
      index === -1
        ? [...messages, message]
        : [...messages.slice(0, index), message, ...messages.slice(index + 1)];
    this.streamedAt.set(message.id, ++this.streamed);
    this.set(streaming ? { messages: next, status: "streaming" } : { messages: next });
  }
}

export function useChatSession(options: Options) {
  const [session] = useState(() => new ChatSession(options));
  // Callbacks change with every render; the session calls the latest ones.
  session.options = options;
  const { messages, status } = useSyncExternalStore(session.subscribe, session.get, session.get);
  const setMessages = useCallback((update: Updater) => session.setMessages(update), [session]);
  return {
    messages,
    status,
    setMessages,
    streamMark: session.mark,
    fresherOnScreen: session.fresherOnScreen,
    sendMessage: session.sendMessage,
    resumeStream: session.resumeStream,
    clearError: session.clearError,
  };
}
