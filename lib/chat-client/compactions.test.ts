import { describe, expect, it } from "vitest";
import { splitCompacted } from "./compactions";
import type { ChatMessage } from "./wire";

const message = (id: string): ChatMessage => ({
  id,
  role: id.startsWith("u") ? "user" : "assistant",
  parts: [{ type: "text", text: id }],
});

describe("compacted history in the chat", () => {
  const list = ["u1", "a1", "u2", "a2", "u3", "a3"].map(message);

  it("I15.4 T5 hides what the latest compaction covers and shows what came after", () => {
    const view = splitCompacted(list, [{ lastMessageId: "a1" }, { lastMessageId: "a2" }]);
    expect(view.visible.map((m) => m.id)).toEqual(["u3", "a3"]);
    expect(view.reachedCompacted).toBe(true);
  });

  it("I15.4 T5 keeps everything while the compacted range is older than what is loaded", () => {
    const view = splitCompacted(list.slice(2), [{ lastMessageId: "a1" }]);
    expect(view.visible).toHaveLength(4);
    expect(view.reachedCompacted).toBe(false);
  });

  it("I15.4 T5 without compactions nothing is hidden", () => {
    expect(splitCompacted(list, [])).toEqual({ visible: list, reachedCompacted: false });
  });
});
