// Parsing external input with zod, and the one mapping from a failed parse to an error code:
//   1. a field the schema does not name (strict objects) → `bad_request:unknown_field`, naming it;
//   2. a string the database cannot store (see ./text) → `bad_request:text`;
//   3. a field with a code of its own (`mode` → `bad_request:mode`) → that code;
//   4. anything else → `bad_request:validation`.
import type { z } from "zod";
import { AppError, type ErrorCode } from "@/lib/kernel/errors";
import { isStorableText, UNSTORABLE_TEXT } from "./text";

/** Codes for fields, by the field's top-level name (`{ title: "bad_request:title" }`). */
export type FieldCodes = Readonly<Record<string, ErrorCode>>;

export function parseInput<T>(schema: z.ZodType<T>, value: unknown, codes: FieldCodes = {}): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw inputError(result.error, codes);
}

export function inputError(error: z.ZodError, codes: FieldCodes = {}): AppError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.join("."),
    message: issue.message,
  }));
  const unknownFields = error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => [...issue.path, key].join("."))
      : [],
  );
  if (unknownFields.length > 0) {
    return new AppError("bad_request:unknown_field", {
      details: { field: unknownFields[0], fields: unknownFields },
    });
  }
  const unstorable = error.issues.find(
    (issue) => issue.code === "custom" && issue.params?.code === UNSTORABLE_TEXT,
  );
  if (unstorable) {
    return new AppError("bad_request:text", { details: { field: unstorable.path.join(".") } });
  }
  const first = error.issues[0];
  const field = first ? String(first.path[0] ?? "") : "";
  const code = Object.hasOwn(codes, field) ? codes[field] : undefined;
  if (code) return new AppError(code, { details: { field, issues } });
  return new AppError("bad_request:validation", { details: { issues } });
}

/**
 * A query read with `schema`. Unstorable text is refused first, whatever the schema says of the
 * field, so a query answers `bad_request:text` as a path and a body do (a field's own code, such
 * as a signature's, is for values that are text).
 */
export function parseQuery<T>(schema: z.ZodType<T>, request: Request, codes: FieldCodes = {}): T {
  const query = queryOf(request);
  for (const [field, value] of Object.entries(query)) {
    if (!isStorableText(field) || !isStorableText(value)) {
      throw new AppError("bad_request:text", {
        details: { field: isStorableText(field) ? field : "" },
      });
    }
  }
  return parseInput(schema, query, codes);
}

/** URL query parameters as a plain object (the last value of a repeated key wins). */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
