import { describe, expect, it } from "vitest";
import { mergeLatest, messageText, prependOlder } from "./history";
import type { ChatMessage } from "./wire";

const m = (id: string, text = id): ChatMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
});
const ids = (messages: ChatMessage[]) => messages.map((message) => message.id);

describe("prependOlder", () => {
  it("puts older messages first and skips ones already shown", () => {
    expect(ids(prependOlder([m("c"), m("d")], [m("a"), m("b"), m("c")]))).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
  });

  it("returns the same list when nothing is new", () => {
    const current = [m("a")];
    expect(prependOlder(current, [m("a")])).toBe(current);
  });
});

describe("mergeLatest", () => {
  it("replaces known messages with the stored version and appends new ones", () => {
    const merged = mergeLatest([m("a"), m("b", "partial")], [m("b", "final"), m("c")]);
    expect(ids(merged)).toEqual(["a", "b", "c"]);
    expect(messageText(merged[1] as ChatMessage)).toBe("final");
  });

  it("inserts a new message right after the one it follows", () => {
    expect(ids(mergeLatest([m("a"), m("local")], [m("a"), m("b")]))).toEqual(["a", "b", "local"]);
  });

  it("appends when no message of the page is known", () => {
    expect(ids(mergeLatest([m("x")], [m("p"), m("q")]))).toEqual(["x", "p", "q"]);
  });
});
