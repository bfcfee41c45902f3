// Text from outside as the database can hold it. Postgres refuses U+0000 in `text` and `jsonb`,
// and a lone surrogate (half of a UTF-16 pair) has no UTF-8 form: drivers replace it or fail.
// So every string a route reads from a path, a query or a body is a `storableString()`, which
// refuses both with `bad_request:text` before anything reaches the database.
import { z } from "zod";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { isStorableText } from "@/lib/text/storable";

/** The zod issue parameter that marks an unstorable string (mapped to `bad_request:text`). */
export const UNSTORABLE_TEXT = "bad_request:text";

// The same test that makes model output storable (there by replacing, here by refusing).
export { isStorableText };

/** A string without U+0000 or lone surrogates; chain `.min()`, `.max()`, `.regex()` as usual. */
export function storableString() {
  return z.string().refine(isStorableText, {
    error: ERROR_SENTENCES[UNSTORABLE_TEXT],
    params: { code: UNSTORABLE_TEXT },
    abort: true,
  });
}

// Whitespace, separators, control and format characters (zero-width spaces and joiners, BOM,
// bidi marks): text made only of these shows nothing, so it counts as empty.
const INVISIBLE = /[\s\p{Z}\p{Cc}\p{Cf}]/gu;

/** True when nothing visible is left after removing invisible characters. */
export function isBlankText(value: string): boolean {
  return value.replace(INVISIBLE, "") === "";
}

/** Any JSON value whose strings (keys included) are all storable; the issue names the first bad one. */
export function storableJson() {
  return z.json().superRefine((value, context) => {
    const path = firstUnstorablePath(value, []);
    if (path) {
      context.addIssue({
        code: "custom",
        path,
        message: ERROR_SENTENCES[UNSTORABLE_TEXT],
        params: { code: UNSTORABLE_TEXT },
      });
    }
  });
}

function firstUnstorablePath(value: unknown, path: string[]): string[] | null {
  if (typeof value === "string") return isStorableText(value) ? null : path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = firstUnstorablePath(item, [...path, String(index)]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return [...path, key];
      const found = firstUnstorablePath(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
