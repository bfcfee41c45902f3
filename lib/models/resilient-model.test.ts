import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { isContextLengthExceeded, retryAfterMs, trimmedPrompt } from "./resilient-model";

const user = (text: string) => ({
  role: "user" as const,
  content: [{ type: "text" as const, text }],
});
const assistant = (text: string) => ({
  role: "assistant" as const,
  content: [{ type: "text" as const, text }],
});

describe("what a failed model call is retried with", () => {
  it("a retry-after in seconds or as a date is how long to wait", () => {
    expect(retryAfterMs({ responseHeaders: { "retry-after": "2" } })).toBe(2_000);
    const date = new Date(Date.now() + 5_000).toUTCString();
    expect(retryAfterMs({ responseHeaders: { "retry-after": date } })).toBeGreaterThan(3_000);
    expect(retryAfterMs({ responseHeaders: {} })).toBeNull();
    expect(retryAfterMs(new Error("no headers"))).toBeNull();
  });

  it("context_length_exceeded is read from the error's code, not its words", () => {
    expect(isContextLengthExceeded({ data: { error: { code: "context_length_exceeded" } } })).toBe(
      true,
    );
    expect(isContextLengthExceeded({ message: "context_length_exceeded" })).toBe(false);
  });

  it("a trimmed prompt keeps the system messages and starts again at a user message", () => {
    const prompt: LanguageModelV4Prompt = [
      { role: "system", content: "Be brief." },
      user("one"),
      assistant("1"),
      user("two"),
      assistant("2"),
      user("three"),
    ];
    expect(trimmedPrompt(prompt)).toEqual([
      { role: "system", content: "Be brief." },
      user("two"),
      assistant("2"),
      user("three"),
    ]);
    expect(trimmedPrompt([{ role: "system", content: "Be brief." }, user("only")])).toBeNull();
  });
});
