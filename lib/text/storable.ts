// Text from models and tools as the database can hold it. Postgres refuses U+0000 in `text` and
// `jsonb`, and a lone surrogate (half of a UTF-16 pair) has no UTF-8 form, so `jsonb` refuses its
// escape. Model and tool output is never refused (the user must still see the answer): every
// such character becomes U+FFFD, the replacement character, before it is logged or stored. User
// input is refused instead, at the route (lib/http/text.ts).

const REPLACEMENT = "\uFFFD";
// U+0000, a high surrogate not followed by a low one, or a low surrogate not preceded by a high
// one. Without the `u` flag the pattern sees UTF-16 code units, which is what a lone half is.
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what this pattern finds.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

/** True when `value` holds neither U+0000 nor a lone surrogate. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** `value` with U+0000 and lone surrogates replaced by U+FFFD; the same string when storable. */
export function toStorableText(value: string): string {
  return isStorableText(value) ? value : value.replace(UNSTORABLE_ALL, REPLACEMENT);
}

/**
 * A JSON-like value with every string in it (object keys too) made storable. Returns the same
 * object when nothing needed replacing, so the common case allocates nothing.
 */
export function toStorableJson<T>(value: T): T {
  return storable(value, new Set()) as T;
}

function storable(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value === "string") return toStorableText(value);
  if (value === null || typeof value !== "object") return value;
  // JSON cannot hold a cycle; leave it for the serializer to refuse rather than loop here.
  if (ancestors.has(value)) return value;
  ancestors.add(value);
  try {
    return storableObject(value, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function storableObject(value: object, ancestors: Set<object>): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const next = storable(item, ancestors);
      if (next !== item) {
        copy ??= [...value];
        copy[index] = next;
      }
    });
    return copy ?? value;
  }
  // Dates, buffers and other objects with their own JSON form serialize as they are.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const nextKey = toStorableText(key);
    const next = storable(item, ancestors);
    if (nextKey !== key || next !== item) changed = true;
    return [nextKey, next] as const;
  });
  return changed ? Object.fromEntries(entries) : value;
}
