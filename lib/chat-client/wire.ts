// What the workstream API sends the browser, as the chat client reads it: the shapes (type-only
// imports from the server modules that produce them, so there is one definition) and small
// guards for the JSON the client cannot trust blindly.
import type { UIMessageChunk } from "ai";
import type { CompactionView } from "@/lib/compaction/view";
import type { StatusChunk } from "@/lib/stream/types";
import type { ChatMessage } from "@/lib/stream/ui-parts";
import type { describeWorkstream } from "@/lib/turns/describe";
import type { HistoryPage } from "@/lib/turns/messages";

export type { ChatDataParts, ChatMessage, MessageMetadata } from "@/lib/stream/ui-parts";
export type WorkstreamDescription = Awaited<ReturnType<typeof describeWorkstream>>;
export type ActiveTurn = NonNullable<WorkstreamDescription["activeTurn"]>;
export type ChatHistoryPage = Omit<HistoryPage, "messages"> & { messages: ChatMessage[] };
export type ChatCompaction = CompactionView;
/** One status event of a turn: `{ turnId, state, … }`. */
export type TurnStatusEvent = StatusChunk["data"];

/** An API error answer (`{ error: { code, message, … } }`) or a failed request. */
export class ChatRequestError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown>;
  /** The user message the failed request carried, when it was a send. */
  messageId: string | undefined;

  constructor(
    code: string,
    message: string,
    { status = 0, details = {} }: { status?: number; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "ChatRequestError";
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads an error answer; a body that is not our error shape still gives a useful message. */
export async function readRequestError(response: Response): Promise<ChatRequestError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch (error) {
    console.warn("[chat] error answer without a JSON body:", error);
  }
  const error = isRecord(body) && isRecord(body.error) ? body.error : null;
  const code = typeof error?.code === "string" ? error.code : `http:${response.status}`;
  const message =
    typeof error?.message === "string"
      ? error.message
      : `The request failed (${[response.status, response.statusText].filter(Boolean).join(" ")}).`;
  const { code: _code, message: _message, ...details } = error ?? {};
  return new ChatRequestError(code, message, { status: response.status, details });
}

/** A chunk of the UI message stream; null for anything unreadable. useChat checks data parts. */
export function parseStreamChunk(data: string): UIMessageChunk | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    console.warn("[chat] skipped an unreadable stream event:", error);
    return null;
  }
  if (!isRecord(value) || typeof value.type !== "string") return null;
  return value as UIMessageChunk;
}

export function asDescription(value: unknown): WorkstreamDescription | null {
  if (!isRecord(value) || typeof value.id !== "string") return null;
  if (typeof value.latestOffset !== "number" || typeof value.isRunning !== "boolean") return null;
  const turn = value.activeTurn;
  if (turn !== null && !(isRecord(turn) && typeof turn.firstOffset === "number")) return null;
  return value as WorkstreamDescription;
}

export function asHistoryPage(value: unknown): ChatHistoryPage | null {
  if (!isRecord(value) || !Array.isArray(value.messages)) return null;
  if (typeof value.hasMore !== "boolean") return null;
  const valid = value.messages.every(
    (m) => isRecord(m) && typeof m.id === "string" && Array.isArray(m.parts),
  );
  return valid ? (value as ChatHistoryPage) : null;
}

/** GET …/compactions: `{ compactions: [...] }`, each with its ids, count and summary. */
export function asCompactions(value: unknown): ChatCompaction[] | null {
  if (!isRecord(value) || !Array.isArray(value.compactions)) return null;
  const valid = value.compactions.every(
    (c) =>
      isRecord(c) &&
      typeof c.id === "string" &&
      typeof c.lastMessageId === "string" &&
      typeof c.summary === "string" &&
      typeof c.messageCount === "number" &&
      isRecord(c.stateChanges),
  );
  return valid ? (value.compactions as ChatCompaction[]) : null;
}
