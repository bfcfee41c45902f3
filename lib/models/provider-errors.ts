// What kind of failure a model call ended with, read from the AI SDK's error classes (the HTTP
// status of an APICallError or a stream error, a network error's system code, our timeout), never
// from the wording of a message: a provider's message and response body may quote the request or
// the key and are not shown to anyone. The result names a code of the closed vocabulary and, for
// an HTTP failure, the status and the provider's error type, which are all a client may learn.
import { APICallError } from "@ai-sdk/provider";
import { AISDKError, RetryError, StreamProviderError } from "ai";
import type { ErrorCode } from "@/lib/kernel/errors";

export class ModelTimeoutError extends Error {
  constructor(
    readonly phase: "first token" | "idle",
    readonly ms: number,
  ) {
    super(`the model sent nothing for ${Math.round(ms / 1000)} s (${phase} timeout)`);
    this.name = "ModelTimeoutError";
  }
}

export type ModelErrorCode = Extract<ErrorCode, `model:${string}`>;

export type ProviderFailure = {
  code: ModelErrorCode;
  /** The provider's HTTP status, when it answered with one. */
  providerStatus?: number;
  /** The provider's error type (`invalid_request_error`), when it is a plain identifier. */
  providerErrorType?: string;
};

// System error codes of a connection that could not be made or was cut (Node, undici, Bun).
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ConnectionRefused",
  "ConnectionClosed",
  "FailedToOpenSocket",
]);

/** The error and its causes, outermost first (a RetryError's last error counts as a cause). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8) {
    chain.push(current);
    current = RetryError.isInstance(current)
      ? current.lastError
      : (current as { cause?: unknown }).cause;
  }
  return chain;
}

function isNetworkError(error: unknown): boolean {
  return causes(error).some((item) => {
    const code = (item as { code?: unknown }).code;
    return typeof code === "string" && NETWORK_CODES.has(code);
  });
}

function codeForStatus(status: number): ModelErrorCode {
  if (status === 401) return "model:auth";
  if (status === 403) return "model:forbidden";
  if (status === 404) return "model:not_found";
  if (status === 408) return "model:timeout";
  if (status === 429) return "model:rate_limit";
  if (status >= 500) return "model:unavailable";
  if (status >= 400) return "model:bad_request";
  return "model:failed";
}

// A provider's error type is an identifier; anything else (a sentence, a long string) is dropped
// rather than shown, since it would be free text from outside.
function plainType(value: unknown): string | undefined {
  return typeof value === "string" && /^[A-Za-z0-9_.:-]{1,64}$/.test(value) ? value : undefined;
}

function providerErrorType(error: APICallError | StreamProviderError): string | undefined {
  if (StreamProviderError.isInstance(error)) return plainType(error.type);
  const data = error.data as { error?: { type?: unknown }; type?: unknown } | undefined;
  return plainType(data?.error?.type ?? data?.type);
}

/**
 * The failure of a model call, or null when the error did not come from the provider or the
 * connection to it (a database, hook or programming error is the turn's own failure).
 */
export function classifyProviderError(error: unknown): ProviderFailure | null {
  for (const item of causes(error)) {
    if (item instanceof ModelTimeoutError) return { code: "model:timeout" };
    if (APICallError.isInstance(item) || StreamProviderError.isInstance(item)) {
      const status = item.statusCode;
      const type = providerErrorType(item);
      const typed = type ? { providerErrorType: type } : {};
      // An HTTP call that got no status never reached a server that answered.
      if (status === undefined) {
        return APICallError.isInstance(item) || isNetworkError(item)
          ? { code: "model:unreachable" }
          : { code: "model:failed", ...typed };
      }
      return { code: codeForStatus(status), providerStatus: status, ...typed };
    }
  }
  if (isNetworkError(error)) return { code: "model:unreachable" };
  if (causes(error).some((item) => AISDKError.isInstance(item))) return { code: "model:failed" };
  return null;
}

/** How long a provider's message may be where it is kept (the owner's view of a failed job). */
const PROVIDER_MESSAGE_MAX = 500;

/**
 * The provider's own words about a failed call (the error message of its answer), cut short; null
 * when the failure did not come from the provider. Free text from outside that may quote the
 * request: only the member whose request it was may see it.
 */
export function providerMessage(error: unknown): string | null {
  for (const item of causes(error)) {
    if (!APICallError.isInstance(item) && !StreamProviderError.isInstance(item)) continue;
    const data = APICallError.isInstance(item)
      ? (item.data as { error?: { message?: unknown } } | undefined)
      : undefined;
    const text = typeof data?.error?.message === "string" ? data.error.message : item.message;
    const plain = text.replace(/\s+/gu, " ").trim();
    if (!plain) return null;
    return [...plain].length > PROVIDER_MESSAGE_MAX
      ? `${[...plain].slice(0, PROVIDER_MESSAGE_MAX - 1).join("")}…`
      : plain;
  }
  return null;
}

/** The error's class and, where present, its status or system code: what a log line may name. */
export function errorClass(error: unknown): string {
  const names: string[] = [];
  for (const item of causes(error)) {
    if (!(item instanceof Error)) {
      names.push(typeof item);
      continue;
    }
    const code = (item as { code?: unknown }).code;
    const status = (item as { statusCode?: unknown }).statusCode;
    let name = item.name;
    if (typeof status === "number") name += ` ${status}`;
    if (typeof code === "string" && /^[A-Za-z0-9_]{1,32}$/.test(code)) name += ` ${code}`;
    names.push(name);
  }
  return names.join(" <- ") || "unknown";
}
