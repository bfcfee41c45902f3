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
    return new AppError("bad_request:validation", {
      details: { issues },
    });
  }
  return new AppError("internal:server");
}

/** Reads a JSON body, answering 400 `bad_request:json` for anything that is not JSON. */
export async function readJson(request: Request, maxBytes = 256 * 1024): Promise<unknown> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBytes) {
    throw new AppError("payload_too_large:body", { details: { maxBytes } });
  }
  const text = await request.text();
  if (text.length > maxBytes) {
    throw new AppError("payload_too_large:body", { details: { maxBytes } });
  }
  if (!text.trim()) throw new AppError("bad_request:json");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("bad_request:json");
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
