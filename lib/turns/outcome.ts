// How a turn ends: the state, the persisted message and the closing chunks of its event log.

import { ModelTimeoutError } from "@/lib/models/resilient-model";
import { type LoggedChunk, statusChunk } from "@/lib/stream/types";
import { GuardRefusal } from "@/lib/turns/hooks";
import type { MessageMetadata, WorkstreamMessage } from "./messages";
import { StopRequested } from "./run-registry";
import type { TurnEnd } from "./turn-store";

export type Outcome = { end: TurnEnd; message: WorkstreamMessage | null; closing: LoggedChunk[] };

export function stopReason(signal: AbortSignal): string {
  return signal.reason instanceof StopRequested ? signal.reason.reason : "stopped";
}

export function mark(message: WorkstreamMessage | null, flags: MessageMetadata) {
  return message ? { ...message, metadata: { ...message.metadata, ...flags } } : null;
}

export function cancelled(
  turnId: string,
  reason: string,
  message: WorkstreamMessage | null,
  usage?: unknown,
): Outcome {
  return {
    end: { state: "cancelled", reason, usage },
    message: mark(message, { stopped: true }),
    closing: [{ type: "abort", reason }, statusChunk(turnId, { state: "cancelled", reason })],
  };
}

export function failed(
  turnId: string,
  { code, text, retryable = true }: { code: string; text: string; retryable?: boolean },
  message: WorkstreamMessage | null,
  extra: Partial<TurnEnd> = {},
): Outcome {
  return {
    end: { state: "failed", reason: text, errorCode: code, ...extra },
    message: mark(message, { failed: true }),
    closing: [
      { type: "error", errorText: text },
      statusChunk(turnId, { state: "error", code, message: text, retryable }),
    ],
  };
}

/** Plain words for a model failure, naming the setting to check where one is likely wrong. */
export function describeModelError(error: unknown): { code: string; text: string } {
  if (error instanceof GuardRefusal) {
    return { code: "guard:refused", text: `Refused by ${error.hook}: ${error.reason}` };
  }
  const unwrapped = (error as { lastError?: unknown }).lastError ?? error;
  const status = (unwrapped as { statusCode?: unknown }).statusCode;
  const message = unwrapped instanceof Error ? unwrapped.message : String(unwrapped);
  if (unwrapped instanceof ModelTimeoutError) {
    return {
      code: "model:timeout",
      text: `The model did not answer: ${message}. Check OPENAI_BASE_URL.`,
    };
  }
  if (status === 401 || status === 403) {
    return {
      code: "model:auth",
      text: "The model provider refused the API key. Check OPENAI_API_KEY.",
    };
  }
  if (/ECONNREFUSED|ENOTFOUND|fetch failed|Cannot connect/i.test(message)) {
    return {
      code: "model:unreachable",
      text: "The model server could not be reached. Check OPENAI_BASE_URL.",
    };
  }
  return { code: "model:failed", text: `The model failed: ${message.slice(0, 300)}` };
}
