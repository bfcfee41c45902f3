import { describe, expect, it } from "vitest";
import { isBlankText, isStorableText } from "./text";

describe("storable text", () => {
  it("S3 U+0000 and lone surrogates are not storable; pairs and other code points are", () => {
    expect(isStorableText("plain, ünïcode, 𝄞 and 👍🏽")).toBe(true);
    expect(isStorableText("\u0001\u007f\ufffd")).toBe(true);
    expect(isStorableText("a\u0000b")).toBe(false);
    expect(isStorableText("high \ud83d alone")).toBe(false);
    expect(isStorableText("low \udc4d alone")).toBe(false);
    expect(isStorableText("\udc4d\ud83d")).toBe(false);
    expect(isStorableText("\ud83d\udc4d")).toBe(true);
  });
});

describe("blank text", () => {
  it("S8 text of only whitespace, separators, control and format characters is blank", () => {
    expect(isBlankText("\u200b\u200c\u200d\u2060\ufeff\u200e\u202e\u00ad")).toBe(true);
    expect(isBlankText("\u0000\u0001\u0007\u001b\u007f\u0085")).toBe(true);
    expect(isBlankText(" \t\n\r\u00a0\u2003\u3000\u2028\u2029")).toBe(true);
    expect(isBlankText("")).toBe(true);
  });

  it("S8 any visible character makes the text not blank", () => {
    expect(isBlankText("\u200b.\u200b")).toBe(false);
    expect(isBlankText("👍")).toBe(false);
    expect(isBlankText("\u0301")).toBe(false);
  });
});
