// The browser's client for the app's JSON routes (the sidebar, the admin console, the memories
// and skills pages, dialogs). A failure throws an ApiError whose code is one of the server's
// closed vocabulary, with the server's sentence (safe to show), or a client-side code when no
// answer of ours arrived: the request never landed, or something else (a proxy) answered.
import { type ErrorCode, isErrorCode } from "@/lib/kernel/errors";

/** What went wrong before the server could say: no connection, or an answer that is not ours. */
export type ClientErrorCode = "network:failed" | "internal:response";
export type ApiErrorCode = ErrorCode | ClientErrorCode;

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

function serverError(body: unknown): { code: ErrorCode; message: string } | null {
  if (!body || typeof body !== "object" || !("error" in body)) return null;
  const error = body.error as { code?: unknown; message?: unknown } | null;
  if (!error || !isErrorCode(error.code) || typeof error.message !== "string") return null;
  return { code: error.code, message: error.message };
}

export async function callApi<T>(path: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: "same-origin",
      cache: "no-store",
      ...rest,
      headers: json === undefined ? rest.headers : { "content-type": "application/json" },
      body: json === undefined ? rest.body : JSON.stringify(json),
    });
  } catch {
    throw new ApiError("network:failed", "Couldn't reach Workstreams. Check your connection.");
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = serverError(body);
    if (error) throw new ApiError(error.code, error.message, response.status);
    throw new ApiError("internal:response", "Something went wrong. Try again.", response.status);
  }
  return body as T;
}
