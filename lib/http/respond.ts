// The one place route handlers turn results and errors into HTTP responses: JSON bodies
// `{ error: { code, message, ...details } }` for every failure, never a stack trace. `route()`
// also applies the request rules (./request-rules) before any handler runs.
import { ZodError } from "zod";
import { AppError } from "@/lib/kernel/errors";
import { inputError } from "./parse";
import { assertRequestRules } from "./request-rules";

export function json(body: unknown, init: ResponseInit = {}): Response {
  return Response.json(body, init);
}

export function errorResponse(error: unknown): Response {
  const appError = toAppError(error);
  if (appError.status >= 500) console.error("[api]", error);
  return Response.json(
    { error: { code: appError.code, message: appError.message, ...appError.details } },
    { status: appError.status, headers: errorHeaders(appError) },
  );
}

/**
 * The headers an error answers with. A refusal that passes with time (a rate limit) tells the client when to try again: `Retry-After` from the error's
 * `details.retryAfter`, in seconds, so the domain says how long and only this edge speaks HTTP.
 */
export function errorHeaders(error: AppError): Record<string, string> | undefined {
  const retryAfter = error.details?.retryAfter;
  const passes = error.code.startsWith("rate_limit:");
  if (!passes || typeof retryAfter !== "number" || !(retryAfter > 0)) return error.headers;
  return { ...error.headers, "retry-after": String(Math.ceil(retryAfter)) };
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return inputError(error);
  return new AppError("internal:server");
}

/** The body as text, answering 413 `payload_too_large:body` past `maxBytes`. */
export async function readBodyText(request: Request, maxBytes = 256 * 1024): Promise<string> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBytes) {
    throw new AppError("payload_too_large:body", { details: { maxBytes } });
  }
  const text = await request.text();
  if (text.length > maxBytes) {
    throw new AppError("payload_too_large:body", { details: { maxBytes } });
  }
  return text;
}

/** Parses a JSON body, answering 400 `bad_request:json` for anything that is not JSON. */
export function parseJson(text: string): unknown {
  if (!text.trim()) throw new AppError("bad_request:json");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("bad_request:json");
  }
}

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/**
 * Wraps a route handler: the request rules (origin, content type) run first, and every thrown
 * error becomes a typed JSON response. Route modules get it through `routeHandlers()`.
 */
export function route<C>(
  handler: Handler<C>,
  options: { body?: "json" | "multipart" } = {},
): Handler<C> {
  return async (request, context) => {
    try {
      assertRequestRules(request, options.body ?? "json");
      return await handler(request, context);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
