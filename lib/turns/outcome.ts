// How a turn ends: the state, the persisted message and the closing chunks of its event log.
// Every text a client sees here (the error chunk, the status message, the recorded reason that
// the admin runs list shows) is the sentence of a code of the closed vocabulary; an exception's
// own message never gets this far.

import type { RequestedApproval } from "@/lib/approvals/store";
import { ERROR_SENTENCES, type ErrorCode } from "@/lib/kernel/errors";
import { classifyProviderError, errorClass } from "@/lib/models/provider-errors";
import { type LoggedChunk, statusChunk } from "@/lib/stream/types";
import { GuardRefusal } from "@/lib/turns/hooks";
import type { MessageMetadata, WorkstreamMessage } from "./messages";
import { StopRequested } from "./run-registry";
import type { TurnEnd } from "./turn-records";

export type Outcome = {
  end: TurnEnd;
  message: WorkstreamMessage | null;
  closing: LoggedChunk[];
  /** A suspended turn: the tool calls it waits for the owner to answer, in call order. */
  approvals?: RequestedApproval[];
};

/** Why a turn failed, as a client may learn it: a code and a few fields that are ours. */
export type TurnFailure = {
  code: ErrorCode;
  providerStatus?: number;
  providerErrorType?: string;
  /** The name of the guard hook that refused (its reason stays on the server). */
  hook?: string;
  retryable?: boolean;
};

/** What the turn records beside its state: usage, cost and model calls. */
export type TurnRecord = Pick<TurnEnd, "usage" | "costUsd" | "attempts">;

/** The code of a stop: a stop is a stop, whichever process or person asked for it. */
export function stopCode(signal: AbortSignal): ErrorCode {
  return signal.reason instanceof StopRequested ? signal.reason.code : "turn:stopped";
}

export function mark(message: WorkstreamMessage | null, flags: MessageMetadata) {
  return message ? { ...message, metadata: { ...message.metadata, ...flags } } : null;
}

export function cancelled(
  turnId: string,
  code: ErrorCode,
  message: WorkstreamMessage | null,
  record: TurnRecord = {},
): Outcome {
  const reason = ERROR_SENTENCES[code];
  return {
    end: { state: "cancelled", reason, errorCode: code, ...record },
    message: mark(message, { stopped: true }),
    closing: [{ type: "abort", reason }, statusChunk(turnId, { state: "cancelled", reason })],
  };
}

/** Whether sending the same message again may help: not once the agent ran out of steps. */
export function retryableAfter(code: ErrorCode): boolean {
  return code !== "turn:step_limit";
}

export function failed(
  turnId: string,
  { code, retryable = retryableAfter(code), ...fields }: TurnFailure,
  message: WorkstreamMessage | null,
  record: TurnRecord = {},
): Outcome {
  const text = ERROR_SENTENCES[code];
  return {
    end: { state: "failed", reason: text, errorCode: code, ...record },
    message: mark(message, { failed: true }),
    closing: [
      { type: "error", errorText: text },
      statusChunk(turnId, { state: "error", code, message: text, retryable, ...fields }),
    ],
  };
}

/**
 * Why a turn failed. A provider failure is named from the SDK's error class (status, network,
 * timeout) with the provider's status and error type; a guard refusal names the hook; anything
 * else (database, event log, hooks, a bug) is the turn's own failure, whatever its message said.
 */
export function describeModelError(error: unknown): TurnFailure {
  if (error instanceof GuardRefusal) return { code: "guard:refused", hook: error.hook };
  return classifyProviderError(error) ?? { code: "turn:failed" };
}

/**
 * A log line for a failed turn: the turn, the error's class and the code, and for our own failures
 * the stack frames. Never the message: a database error's message carries the SQL parameters
 * (other tenants' ids and text), a provider's its response body.
 */
export function logTurnError(turnId: string, what: string, error: unknown): void {
  const failure = describeModelError(error);
  const frames =
    failure.code === "turn:failed" && error instanceof Error && error.stack
      ? `\n${error.stack
          .split("\n")
          .filter((line) => line.trimStart().startsWith("at "))
          .join("\n")}`
      : "";
  console.error(`[turn ${turnId}] ${what}: ${errorClass(error)} (${failure.code})${frames}`);
}
