import { afterEach, describe, expect, it, vi } from "vitest";
import { highlightCode } from "./highlight";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("highlightCode", () => {
  it("colours a whole line even when the first pass over a grammar is slow", async () => {
    // A busy device: every step of the tokenizer takes 300 ms (the clock is all that is faked).
    let now = 0;
    vi.spyOn(Date, "now").mockImplementation(() => {
      now += 300;
      return now;
    });
    const html = await highlightCode("/** Parses a line. */\nexport const x = 1;", "ts");
    // github-light's keyword red on `export`, not the comment grey carried past the comment.
    expect(html).toMatch(/--shiki-light:#D73A49;--shiki-dark:#F97583">export</);
    expect(html).toMatch(/--shiki-light:#005CC5;--shiki-dark:#79B8FF"> x</);
  });
});
