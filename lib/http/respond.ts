// The one place route handlers turn results and errors into HTTP responses: JSON bodies
// `{ error: { code, message, ...details } }` for every failure, never a stack trace.
import { ZodError } from "zod";
import { AppError } from "./errors";

export function json(body: unknown, init: ResponseInit = {}): Response {
  return Response.json(body, init);
}

export function errorResponse(error: unknown): Response {
  const appError = toAppError(error);
  if (appError.status >= 500) console.error("[api]", error);
  return Response.json(
    { error: { code: appError.code, message: appError.message, ...appError.details } },
    { status: appError.status, headers: appError.headers },
  );
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) {
    const issues = error.issues.map((issue) => ({
      path: issue.path.join("."),
      message: issue.message,
    }));
    const first = issues[0];
    const where = first?.path ? `${first.path}: ` : "";
    return new AppError("bad_request:validation", `${where}${first?.message ?? "Invalid input"}`, {
      details: { issues },
    });
  }
  return new AppError("internal:server", "Something went wrong on our side. Please try again.");
}

/** Reads a JSON body, answering 400 `bad_request:json` for anything that is not JSON. */
export async function readJson(request: Request, maxBytes = 256 * 1024): Promise<unknown> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBytes) {
    throw new AppError("payload_too_large:body", `The request body exceeds ${maxBytes} bytes.`);
  }
  const text = await request.text();
  if (text.length > maxBytes) {
    throw new AppError("payload_too_large:body", `The request body exceeds ${maxBytes} bytes.`);
  }
  if (!text.trim()) throw new AppError("bad_request:json", "The request body must be JSON.");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("bad_request:json", "The request body is not valid JSON.");
  }
}

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/** Wraps a route handler so every thrown error becomes a typed JSON response. */
export function route<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
