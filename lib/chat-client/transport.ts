// The chat page's one transport (the AI SDK's ChatTransport), driven by useChat in
// components/chat/use-workstream-chat.ts. `sendMessages` POSTs only the new user message (or
// re-POSTs a failed one: Retry) and streams the turn; `reconnectToStream` finds the running turn
// (started here, in another tab or on another server) and replays it from its first event, so a
// reload or a second tab rebuilds the answer without duplicates. A turn that went on after its
// approvals is replayed from where it went on instead: its chunks continue the answer as history
// holds it (`resumeStreamIsReplay` is false for that stream). Both streams survive dropped
// connections. Stop is the server's (POST …/stop): closing a stream never ends a turn.
import type { ChatTransport, UIMessageChunk } from "ai";
import { type FetchLike, fetchWorkstream, request, workstreamPath } from "./api";
import {
  type ConnectionState,
  followTurnStream,
  type RetrySettings,
  type StreamEnvironment,
} from "./follow-stream";
import {
  type ActiveTurn,
  type ChatMessage,
  ChatRequestError,
  readRequestError,
  type WorkstreamDescription,
} from "./wire";

export type TransportEvents = {
  /** The server accepted a user message and opened its turn. */
  onAccepted?: (accepted: { messageId: string; turnId: string | null }) => void;
  onOffset?: (offset: number) => void;
  onConnection?: (state: ConnectionState) => void;
  /** A stream lost track of its turn (it ended while disconnected): reload history. */
  onLost?: () => void;
  /** A resume found no running turn; the description says what is there instead. */
  onNothingToResume?: (description: WorkstreamDescription) => void;
};

export type WorkstreamTransportOptions = {
  workstreamId: string;
  events?: TransportEvents;
  fetch?: FetchLike;
  retry?: Partial<RetrySettings>;
  environment?: Partial<StreamEnvironment>;
};

const SSE_ACCEPT = { accept: "text/event-stream" };

/** The offset a replay of the running turn starts after: its first, or where it went on. */
function replayFrom(turn: ActiveTurn): number {
  return Math.max(0, (turn.resumedOffset ?? turn.firstOffset) - 1);
}

export class WorkstreamTransport implements ChatTransport<ChatMessage> {
  /** Read by useChat right after `reconnectToStream` resolves: set there for the turn found. */
  resumeStreamIsReplay = true;
  private readonly options: WorkstreamTransportOptions;
  /** Counts the chunks the streams delivered, and the count at each message's latest. */
  private delivered = 0;
  private deliveredAt = new Map<string, number>();

  constructor(options: WorkstreamTransportOptions) {
    this.options = options;
  }

  async sendMessages({
    messages,
    messageId,
    abortSignal,
  }: Parameters<ChatTransport<ChatMessage>["sendMessages"]>[0]): Promise<
    ReadableStream<UIMessageChunk>
  > {
    const message =
      (messageId ? messages.find((m) => m.id === messageId) : undefined) ??
      messages.findLast((m) => m.role === "user");
    if (message?.role !== "user") {
      throw new ChatRequestError("bad_request:empty_message", "There is no message to send.");
    }
    // Text, and attachments by id (`file:<id>`): the server signs their URLs itself.
    type SentPart =
      | { type: "text"; text: string }
      | { type: "file"; mediaType: string; filename?: string; url: string };
    const parts = message.parts.flatMap((part): SentPart[] => {
      if (part.type === "text") return [{ type: "text", text: part.text }];
      if (part.type === "file" && part.url.startsWith("file:")) {
        return [
          { type: "file", mediaType: part.mediaType, filename: part.filename, url: part.url },
        ];
      }
      return [];
    });
    const response = await request(
      workstreamPath(this.options.workstreamId, "/messages"),
      {
        method: "POST",
        headers: { ...SSE_ACCEPT, "content-type": "application/json" },
        body: JSON.stringify({ message: { id: message.id, role: "user", parts } }),
        signal: abortSignal,
      },
      this.options.fetch,
    ).catch((error: unknown) => {
      if (error instanceof ChatRequestError) error.messageId = message.id;
      throw error;
    });
    if (!response.ok) {
      const error = await readRequestError(response);
      error.messageId = message.id;
      throw error;
    }
    const turnId = response.headers.get("x-turn-id");
    this.options.events?.onAccepted?.({ messageId: message.id, turnId });
    return this.follow({ response, after: null, turnId, signal: abortSignal });
  }

  async reconnectToStream({
    abortSignal,
  }: Parameters<
    ChatTransport<ChatMessage>["reconnectToStream"]
  >[0]): Promise<ReadableStream<UIMessageChunk> | null> {
    const description = await fetchWorkstream(this.options.workstreamId, {
      fetch: this.options.fetch,
      signal: abortSignal,
    });
    const turn = description.activeTurn;
    if (!turn || turn.state === "suspended") {
      this.options.events?.onNothingToResume?.(description);
      return null;
    }
    this.resumeStreamIsReplay = turn.resumedOffset === null;
    return this.follow({
      response: null,
      after: replayFrom(turn),
      turnId: turn.id,
      signal: abortSignal,
    });
  }

  /** Where the streams stand now: taken before a read of the server's messages starts. */
  mark(): number {
    return this.delivered;
  }

  /** Whether a stream changed this message after `mark` (a read begun then may be older). */
  changedSince(messageId: string, mark: number): boolean {
    return (this.deliveredAt.get(messageId) ?? 0) > mark;
  }

  private follow({
    response,
    after,
    turnId,
    signal,
  }: {
    response: Response | null;
    after: number | null;
    turnId: string | null;
    signal: AbortSignal | undefined;
  }): ReadableStream<UIMessageChunk> {
    const { workstreamId, events, fetch: fetchImpl } = this.options;
    let messageId: string | undefined;
    const count = new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform: (chunk, controller) => {
        if (chunk.type === "start" && chunk.messageId) messageId = chunk.messageId;
        this.delivered += 1;
        if (messageId) this.deliveredAt.set(messageId, this.delivered);
        controller.enqueue(chunk);
      },
    });
    return followTurnStream({
      response,
      after,
      signal,
      retry: this.options.retry,
      environment: this.options.environment,
      onOffset: events?.onOffset,
      onConnection: events?.onConnection,
      onLost: events?.onLost,
      reconnect: (from, connectionSignal) =>
        request(
          workstreamPath(workstreamId, `/events?after=${from}`),
          { headers: SSE_ACCEPT, signal: connectionSignal },
          fetchImpl,
        ),
      locate: async (locateSignal) => {
        const description = await fetchWorkstream(workstreamId, {
          fetch: fetchImpl,
          signal: locateSignal,
        });
        const active = description.activeTurn;
        return active && active.id === turnId ? replayFrom(active) : null;
      },
    }).pipeThrough(count);
  }
}
