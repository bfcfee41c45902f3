// json columns read through hand-written SQL come parsed from both drivers, but a driver may hand
// one back as its text: every reader of such a column accepts both through `fromJson`.

/** `value` parsed when the driver handed back the JSON's text, else `value` itself. */
export function fromJson<T>(value: T | string): T {
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}
