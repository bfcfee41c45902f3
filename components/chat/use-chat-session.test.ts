// The chat session against a transport that replays a turn going on after its approval: a copy of
// the answer read from the server before the turn ended must not replace what the stream showed.
import type { UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import type { WorkstreamTransport } from "@/lib/chat-client/transport";
import type { ChatMessage } from "@/lib/chat-client/wire";
import { ChatSession } from "./use-chat-session";

const kept: ChatMessage = {
  id: "msg_answer",
  role: "assistant",
  parts: [{ type: "text", text: "Before the approval." }],
} as ChatMessage;

function replaying(chunks: UIMessageChunk[]): WorkstreamTransport {
  return {
    resume: async () => ({
      continues: true,
      stream: new ReadableStream<UIMessageChunk>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
    }),
  } as unknown as WorkstreamTransport;
}

const textOf = (message: ChatMessage | undefined) =>
  (message?.parts ?? []).map((part) => (part.type === "text" ? part.text : "")).join(" ");

describe("the chat session", () => {
  it("T25 a server copy read before the resumed answer ended does not replace what the stream showed", async () => {
    const session = new ChatSession({
      id: "ws",
      messages: [kept],
      transport: replaying([
        { type: "text-start", id: "t1" },
        { type: "text-delta", id: "t1", delta: "It was not approved." },
        { type: "text-end", id: "t1" },
        { type: "finish" },
      ]),
    });
    // A history read starts, the stream then shows the rest of the answer, and the read's older
    // copy (the answer as it was kept at the approval) arrives last.
    const mark = session.mark();
    await session.resumeStream(kept);
    const shown = session.get().messages.at(-1);
    expect(textOf(shown)).toBe("Before the approval. It was not approved.");
    const merged = session.fresherOnScreen([kept], mark);
    expect(textOf(merged[0])).toBe("Before the approval. It was not approved.");
    // A read that began after the stream's last change is the server's word.
    expect(session.fresherOnScreen([kept], session.mark())).toEqual([kept]);
  });
});
