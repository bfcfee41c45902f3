import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isStorableText, toStorableJson, toStorableText } from "./storable";

/** What Postgres needs, checked independently: no NUL, and a lossless trip through UTF-8. */
function postgresCanStore(text: string): boolean {
  return !text.includes("\u0000") && Buffer.from(text, "utf8").toString("utf8") === text;
}

// Every UTF-16 code unit, so lone surrogates and U+0000 turn up often.
const anyText = fc.string({ unit: "binary", maxLength: 40 });
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    anyText,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(anyText, tie("value"), { maxKeys: 4 }),
  ),
})).value;

function everyString(value: unknown, found: string[] = []): string[] {
  if (typeof value === "string") found.push(value);
  else if (Array.isArray(value)) for (const item of value) everyString(item, found);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      found.push(key);
      everyString(item, found);
    }
  }
  return found;
}

describe("storable text", () => {
  it("S2a U+0000 and lone surrogates become U+FFFD; pairs and other text are kept", () => {
    expect(toStorableText("a\u0000b")).toBe("a\uFFFDb");
    expect(toStorableText("x\uD800y")).toBe("x\uFFFDy");
    expect(toStorableText("x\uDC00")).toBe("x\uFFFD");
    expect(toStorableText("\uDC00\uD800")).toBe("\uFFFD\uFFFD");
    expect(toStorableText("emoji 😀 stays")).toBe("emoji 😀 stays");
    expect(toStorableText("")).toBe("");
  });

  it("S2a any string becomes storable, keeps its length and is unchanged when already storable", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const result = toStorableText(text);
        expect(postgresCanStore(result)).toBe(true);
        expect(isStorableText(text)).toBe(postgresCanStore(text));
        expect(result.length).toBe(text.length);
        if (postgresCanStore(text)) expect(result).toBe(text);
      }),
    );
  });

  it("S2a JSON values are made storable everywhere, keys included, and survive a JSON round trip", () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        const result = toStorableJson(value);
        for (const text of everyString(result)) expect(postgresCanStore(text)).toBe(true);
        expect(JSON.parse(JSON.stringify(result))).toEqual(result);
      }),
    );
  });

  it("S2a a chunk with a tool input is cleaned without touching numbers, booleans or nulls", () => {
    const chunk = {
      type: "tool-input-available",
      toolCallId: "call_1",
      input: { "q\u0000": ["a\uD800", 3, true, null], nested: { deep: "\u0000" } },
    };
    expect(toStorableJson(chunk)).toEqual({
      type: "tool-input-available",
      toolCallId: "call_1",
      input: { "q\uFFFD": ["a\uFFFD", 3, true, null], nested: { deep: "\uFFFD" } },
    });
    const clean = { type: "text-delta", delta: "fine" };
    expect(toStorableJson(clean)).toBe(clean);
  });

  it("S2a an object referenced twice is cleaned at both places", () => {
    const shared = { text: "\u0000" };
    expect(toStorableJson({ a: shared, b: [shared] })).toEqual({
      a: { text: "\uFFFD" },
      b: [{ text: "\uFFFD" }],
    });
  });
});
