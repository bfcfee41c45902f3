// Builds the assistant's message from the turn's UI message stream, chunk by chunk, the way the
// AI SDK's useChat does (same parts, same states), without its runtime: that runtime brings the
// SDK's schemas and provider code (zod included) into the chat page, about 90 KB gzip, for what is
// a fold over a handful of chunk types. Only type imports come from "ai" here.
import type { UIMessageChunk } from "ai";
import type { ChatMessage, MessageMetadata } from "./wire";

type Part = ChatMessage["parts"][number];
/** A part while it is being built: the fields a chunk sets, by name. */
type Draft = { type: string } & Record<string, unknown>;

export type StreamingMessage = {
  message: ChatMessage;
  /** Text and reasoning parts still open, by the chunk id that opened them. */
  openText: Map<string, Draft>;
  openReasoning: Map<string, Draft>;
  /** Tool inputs still streaming: their raw text so far. */
  toolInputs: Map<string, { text: string; toolName: string; dynamic: boolean; title?: string }>;
  /** No `start` chunk seen yet. */
  fresh: boolean;
};

export function streamingMessage(messageId: string): StreamingMessage {
  return {
    message: { id: messageId, role: "assistant", metadata: undefined, parts: [] },
    openText: new Map(),
    openReasoning: new Map(),
    toolInputs: new Map(),
    fresh: true,
  };
}

/**
 * A turn that goes on after its approvals continues the answer kept when it was suspended (as
 * the AI SDK continues the last assistant message): the chunks apply on top of a copy of it.
 */
export function continuingMessage(message: ChatMessage): StreamingMessage {
  return {
    ...streamingMessage(message.id),
    message: structuredClone(message),
    fresh: false,
  };
}

/** A 16-character id from the browser's random source (the shape the AI SDK's generateId makes). */
export function randomId(): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let id = "";
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return id;
}

function isToolType(type: string): boolean {
  return type === "dynamic-tool" || type.startsWith("tool-");
}

export function isToolPart<P extends { type: string }>(
  part: P,
): part is Extract<P, { type: "dynamic-tool" | `tool-${string}` }> {
  return isToolType(part.type);
}

export type ChunkEffect = {
  /** The message changed: show it. */
  changed: boolean;
  /** A data chunk for the caller (transient ones are not kept in the message). */
  data?: Extract<UIMessageChunk, { type: `data-${string}` }>;
};

const NOTHING: ChunkEffect = { changed: false };
const CHANGED: ChunkEffect = { changed: true };

function parts(state: StreamingMessage): Draft[] {
  return state.message.parts as unknown as Draft[];
}

/** The parts after the last step boundary: where a tool call of this step lives. */
function currentStep(state: StreamingMessage): Draft[] {
  const all = parts(state);
  const start = all.findLastIndex((part) => part.type === "step-start");
  return all.slice(start + 1);
}

function findTool(state: StreamingMessage, toolCallId: string): Draft | undefined {
  return (
    currentStep(state).find((part) => isToolType(part.type) && part.toolCallId === toolCallId) ??
    parts(state).findLast((part) => isToolType(part.type) && part.toolCallId === toolCallId)
  );
}

function mergeMetadata(state: StreamingMessage, metadata: unknown): boolean {
  if (metadata === undefined || metadata === null || typeof metadata !== "object") return false;
  state.message.metadata = {
    ...(state.message.metadata ?? {}),
    ...(metadata as MessageMetadata),
  };
  return true;
}

/** Sets a tool part's fields, creating the part in the current step if it is not there yet. */
function upsertTool(
  state: StreamingMessage,
  fields: { toolCallId: string; toolName: string; dynamic: boolean; state: string } & Record<
    string,
    unknown
  >,
): void {
  const { toolName, dynamic, ...rest } = fields;
  const existing = findTool(state, fields.toolCallId);
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (existing) {
    // Each state carries its own input, output, error and raw input; title and the like stay.
    for (const key of ["input", "output", "errorText", "rawInput", "preliminary"]) {
      if (!(key in defined)) delete existing[key];
    }
    Object.assign(existing, defined);
    return;
  }
  parts(state).push(
    dynamic
      ? { type: "dynamic-tool", toolName, ...defined }
      : { type: `tool-${toolName}`, ...defined },
  );
}

function toolNameOf(part: Draft): string {
  return part.type === "dynamic-tool" ? String(part.toolName) : part.type.slice("tool-".length);
}

/** Tool input arrives as JSON text; while it is incomplete the last complete value stays. */
function parseInput(text: string, previous: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Incomplete JSON mid-stream is expected; the finished input arrives in tool-input-available.
    return previous;
  }
}

/**
 * Applies one chunk to the message being built (in place). `start` opens a new message when it
 * names a different id, or on the first `start` of a replayed stream (a resume replays the turn
 * from its first event, so what was built before is dropped).
 */
export function applyChunk(
  state: StreamingMessage,
  chunk: UIMessageChunk,
  options: { replay: boolean },
): ChunkEffect {
  switch (chunk.type) {
    case "start": {
      const first = state.fresh;
      state.fresh = false;
      const other = chunk.messageId != null && chunk.messageId !== state.message.id;
      if ((first && options.replay) || other) {
        Object.assign(state, streamingMessage(chunk.messageId ?? state.message.id), {
          fresh: false,
        });
      }
      mergeMetadata(state, chunk.messageMetadata);
      return CHANGED;
    }
    case "text-start": {
      const part: Draft = { type: "text", text: "", state: "streaming" };
      if (chunk.providerMetadata) part.providerMetadata = chunk.providerMetadata;
      state.openText.set(chunk.id, part);
      parts(state).push(part);
      return CHANGED;
    }
    case "text-delta": {
      const part = state.openText.get(chunk.id);
      if (!part) return NOTHING;
      part.text = `${part.text}${chunk.delta}`;
      return CHANGED;
    }
    case "text-end": {
      const part = state.openText.get(chunk.id);
      if (!part) return NOTHING;
      part.state = "done";
      state.openText.delete(chunk.id);
      return CHANGED;
    }
    case "reasoning-start": {
      const part: Draft = { type: "reasoning", id: chunk.id, text: "", state: "streaming" };
      state.openReasoning.set(chunk.id, part);
      parts(state).push(part);
      return CHANGED;
    }
    case "reasoning-delta": {
      const part = state.openReasoning.get(chunk.id);
      if (!part) return NOTHING;
      part.text = `${part.text}${chunk.delta}`;
      return CHANGED;
    }
    case "reasoning-end": {
      const part = state.openReasoning.get(chunk.id);
      if (!part) return NOTHING;
      part.state = "done";
      state.openReasoning.delete(chunk.id);
      return CHANGED;
    }
    case "tool-input-start": {
      const dynamic = chunk.dynamic === true;
      state.toolInputs.set(chunk.toolCallId, {
        text: "",
        toolName: chunk.toolName,
        dynamic,
        ...(chunk.title === undefined ? {} : { title: chunk.title }),
      });
      upsertTool(state, {
        toolCallId: chunk.toolCallId,
        toolName: chunk.toolName,
        dynamic,
        state: "input-streaming",
        input: undefined,
        title: chunk.title,
        providerExecuted: chunk.providerExecuted,
      });
      return CHANGED;
    }
    case "tool-input-delta": {
      const pending = state.toolInputs.get(chunk.toolCallId);
      if (!pending) return NOTHING;
      pending.text += chunk.inputTextDelta;
      const part = findTool(state, chunk.toolCallId);
      upsertTool(state, {
        toolCallId: chunk.toolCallId,
        toolName: pending.toolName,
        dynamic: pending.dynamic,
        state: "input-streaming",
        input: parseInput(pending.text, part?.input),
        rawInput: pending.text,
      });
      return CHANGED;
    }
    case "tool-input-available":
    case "tool-input-error": {
      state.toolInputs.delete(chunk.toolCallId);
      const existing = findTool(state, chunk.toolCallId);
      upsertTool(state, {
        toolCallId: chunk.toolCallId,
        toolName: chunk.toolName,
        dynamic: existing ? existing.type === "dynamic-tool" : chunk.dynamic === true,
        state: chunk.type === "tool-input-available" ? "input-available" : "output-error",
        input: chunk.input,
        errorText: chunk.type === "tool-input-error" ? chunk.errorText : undefined,
        title: chunk.title,
        providerExecuted: chunk.providerExecuted,
      });
      return CHANGED;
    }
    case "tool-output-available":
    case "tool-output-error": {
      const part = findTool(state, chunk.toolCallId);
      if (!part) return NOTHING;
      upsertTool(state, {
        toolCallId: chunk.toolCallId,
        toolName: toolNameOf(part),
        dynamic: part.type === "dynamic-tool",
        state: chunk.type === "tool-output-available" ? "output-available" : "output-error",
        input: part.input,
        ...(chunk.type === "tool-output-available"
          ? { output: chunk.output, preliminary: chunk.preliminary }
          : {
              errorText: chunk.errorText,
              rawInput: part.type === "dynamic-tool" ? undefined : part.rawInput,
            }),
        providerExecuted: chunk.providerExecuted,
      });
      return CHANGED;
    }
    case "tool-output-denied": {
      const part = findTool(state, chunk.toolCallId);
      if (!part) return NOTHING;
      part.state = "output-denied";
      return CHANGED;
    }
    case "tool-approval-request": {
      const part = findTool(state, chunk.toolCallId);
      if (!part) return NOTHING;
      part.state = "approval-requested";
      part.approval = {
        id: chunk.approvalId,
        ...(chunk.approvalDescriptor != null ? { descriptor: chunk.approvalDescriptor } : {}),
        ...(Object.hasOwn(chunk, "inputSchemaInput")
          ? { inputSchemaInput: chunk.inputSchemaInput }
          : {}),
        ...(chunk.reason != null ? { requestReason: chunk.reason } : {}),
        ...(chunk.isAutomatic === true ? { isAutomatic: true } : {}),
        ...(chunk.signature != null ? { signature: chunk.signature } : {}),
      };
      return CHANGED;
    }
    case "tool-approval-response": {
      // Found by its approval: the answer may come from another tab, long after the request.
      const part = parts(state).find(
        (item) =>
          isToolType(item.type) &&
          (item.approval as { id?: string } | undefined)?.id === chunk.approvalId,
      );
      if (!part) return NOTHING;
      const approval = (part.approval as Record<string, unknown> | undefined) ?? {};
      part.state = "approval-responded";
      part.approval = {
        ...approval,
        id: chunk.approvalId,
        approved: chunk.approved,
        ...(chunk.reason != null ? { reason: chunk.reason } : {}),
      };
      if (chunk.providerExecuted != null) part.providerExecuted = chunk.providerExecuted;
      if (chunk.providerMetadata != null) part.callProviderMetadata = chunk.providerMetadata;
      return CHANGED;
    }
    case "source-url":
    case "source-document":
    case "file": {
      const { type, ...rest } = chunk;
      parts(state).push({ type, ...rest });
      return CHANGED;
    }
    case "start-step":
      parts(state).push({ type: "step-start" });
      return NOTHING;
    case "finish":
    case "message-metadata":
      return mergeMetadata(state, chunk.messageMetadata) ? CHANGED : NOTHING;
    default: {
      if (!chunk.type.startsWith("data-")) return NOTHING;
      const data = chunk as Extract<UIMessageChunk, { type: `data-${string}` }>;
      if (data.transient) return { changed: false, data };
      const existing =
        data.id == null
          ? undefined
          : parts(state).find((part) => part.type === data.type && part.id === data.id);
      if (existing) existing.data = data.data;
      else
        parts(state).push({
          type: data.type,
          data: data.data,
          ...(data.id ? { id: data.id } : {}),
        });
      return { changed: true, data };
    }
  }
}

/** A copy of the message for rendering: React sees a new object each time it changed. */
export function snapshot(state: StreamingMessage): ChatMessage {
  return structuredClone(state.message) as ChatMessage;
}

export type { Part as ChatPart };
