import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { textOf } from "./message-text";

describe("textOf", () => {
  it("keeps the words of a message's text parts, one per line, and nothing else", () => {
    const message: Pick<UIMessage, "parts"> = {
      parts: [
        { type: "text", text: "First." },
        { type: "reasoning", text: "hidden thoughts" },
        { type: "file", mediaType: "text/plain", url: "https://example.com/a.txt" },
        { type: "text", text: "" },
        { type: "text", text: "Second." },
      ],
    };
    expect(textOf(message)).toBe("First.\nSecond.");
    expect(textOf(undefined)).toBe("");
  });
});
