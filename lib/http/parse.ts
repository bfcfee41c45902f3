// Parsing external input with zod and answering with a specific code for the fields that have
// one (`mode` → `bad_request:mode`); other failures stay `bad_request:validation`.
import type { z } from "zod";
import { AppError, type ErrorCode } from "./errors";

export function parseInput<T>(
  schema: z.ZodType<T>,
  value: unknown,
  codes: Record<string, ErrorCode> = {},
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.join("."),
    message: issue.message,
  }));
  const first = result.error.issues[0];
  const field = first ? String(first.path[0] ?? "") : "";
  const code = Object.hasOwn(codes, field) ? codes[field] : undefined;
  if (code) {
    throw new AppError(code, { details: { field, issues } });
  }
  throw result.error;
}

/** URL query parameters as a plain object (the last value of a repeated key wins). */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
