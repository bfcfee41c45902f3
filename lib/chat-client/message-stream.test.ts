import { readUIMessageStream, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { applyChunk, continuingMessage, snapshot, streamingMessage } from "./message-stream";
import type { ChatMessage } from "./wire";

const META = { agentId: "agent_1", turnId: "turn_1", model: "offline", startedAt: "2026-11-23" };

// A turn as the server sends it: text, a reasoning block, a tool call with streamed input and
// its output, a failing tool, a second step, and the closing metadata.
const TURN: UIMessageChunk[] = [
  { type: "start", messageId: "msg_answer", messageMetadata: META },
  { type: "start-step" },
  { type: "reasoning-start", id: "r1" },
  { type: "reasoning-delta", id: "r1", delta: "Thinking " },
  { type: "reasoning-delta", id: "r1", delta: "it over." },
  { type: "reasoning-end", id: "r1" },
  { type: "text-start", id: "t1" },
  { type: "text-delta", id: "t1", delta: "Let me look " },
  { type: "text-delta", id: "t1", delta: "that up." },
  { type: "text-end", id: "t1" },
  { type: "tool-input-start", toolCallId: "call_1", toolName: "current_time" },
  { type: "tool-input-delta", toolCallId: "call_1", inputTextDelta: '{"timeZone":' },
  { type: "tool-input-delta", toolCallId: "call_1", inputTextDelta: '"Europe/Berlin"}' },
  {
    type: "tool-input-available",
    toolCallId: "call_1",
    toolName: "current_time",
    input: { timeZone: "Europe/Berlin" },
  },
  { type: "tool-output-available", toolCallId: "call_1", output: { time: "12:00" } },
  {
    type: "tool-input-available",
    toolCallId: "call_2",
    toolName: "lookup",
    input: { q: "x" },
    dynamic: true,
  },
  { type: "tool-output-error", toolCallId: "call_2", errorText: "not found" },
  { type: "finish-step" },
  { type: "start-step" },
  { type: "text-start", id: "t2" },
  { type: "text-delta", id: "t2", delta: "It is noon in Berlin." },
  { type: "text-end", id: "t2" },
  { type: "finish-step" },
  { type: "finish", finishReason: "stop", messageMetadata: { ...META, costUsd: 0 } },
];

// A turn that ends on two tool calls waiting for approval (the stream ends with the requests),
// and its continuation once both are answered: the answers (logged when given), then the same
// message goes on with the approved call's output, the denied one, and the text after them.
const SUSPENDED: UIMessageChunk[] = [
  { type: "start", messageId: "msg_answer", messageMetadata: META },
  { type: "start-step" },
  { type: "tool-input-start", toolCallId: "call_a", toolName: "send_message" },
  { type: "tool-input-delta", toolCallId: "call_a", inputTextDelta: '{"workstreamId":"Writer",' },
  { type: "tool-input-delta", toolCallId: "call_a", inputTextDelta: '"text":"hi"}' },
  {
    type: "tool-input-available",
    toolCallId: "call_a",
    toolName: "send_message",
    input: { workstreamId: "Writer", text: "hi" },
  },
  {
    type: "tool-approval-request",
    approvalId: "ap_1",
    toolCallId: "call_a",
    reason: "You asked me to pass this on.",
  },
  {
    type: "tool-input-available",
    toolCallId: "call_b",
    toolName: "send_message",
    input: { workstreamId: "Analyst", text: "numbers?" },
  },
  { type: "tool-approval-request", approvalId: "ap_2", toolCallId: "call_b" },
  { type: "finish-step" },
  { type: "finish", finishReason: "tool-calls", messageMetadata: META },
];
const CONTINUATION: UIMessageChunk[] = [
  { type: "tool-approval-response", approvalId: "ap_1", approved: true },
  { type: "tool-approval-response", approvalId: "ap_2", approved: false, reason: "not now" },
  { type: "start", messageId: "msg_answer", messageMetadata: META },
  { type: "tool-output-available", toolCallId: "call_a", output: { sent: true } },
  { type: "tool-output-denied", toolCallId: "call_b" },
  { type: "start-step" },
  { type: "text-start", id: "t9" },
  { type: "text-delta", id: "t9", delta: "Sent to Writer; the Analyst one was declined." },
  { type: "text-end", id: "t9" },
  { type: "finish-step" },
  { type: "finish", finishReason: "stop", messageMetadata: { ...META, costUsd: 0 } },
];

async function sdkMessage(
  chunks: UIMessageChunk[],
  from?: ChatMessage,
): Promise<ChatMessage | undefined> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: ChatMessage | undefined;
  const read = readUIMessageStream<ChatMessage>({ stream, message: from });
  for await (const message of read) last = message;
  return last;
}

/** What the page shows after these chunks: the message as of the last chunk that changed it. */
function ours(chunks: UIMessageChunk[], replay = false): ChatMessage | undefined {
  const state = streamingMessage("generated");
  let shown: ChatMessage | undefined;
  for (const chunk of chunks) {
    if (applyChunk(state, chunk, { replay }).changed) shown = snapshot(state);
  }
  return shown;
}

/**
 * Drops the fields left undefined (the SDK writes some as `undefined`, we leave them out), and
 * the input of a tool call whose input is still streaming: the SDK repairs half-received JSON
 * into an object, the page keeps the last complete value (the tool card shows input only when
 * opened, and the finished input follows within the same turn).
 */
function defined<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, function (this: Record<string, unknown>, key, item) {
      return key === "input" && this.state === "input-streaming" ? undefined : item;
    }),
  ) as T;
}

describe("the chat's message stream (without the AI SDK's runtime in the browser)", () => {
  it("UI18 builds the same answer from a turn's chunks as the AI SDK's useChat would", async () => {
    const expected = await sdkMessage(TURN);
    expect(defined(ours(TURN))).toEqual(defined(expected));
  });

  it("UI18 builds the same answer at every point of the stream (what is on screen meanwhile)", async () => {
    for (let n = 1; n <= TURN.length; n++) {
      const prefix = TURN.slice(0, n);
      const expected = await sdkMessage(prefix);
      expect(defined(ours(prefix)), `after ${n} chunks`).toEqual(defined(expected));
    }
  });

  it("UI18 a replayed turn (a resume) starts its answer over at its first start chunk", () => {
    const state = streamingMessage("generated");
    for (const chunk of TURN.slice(0, 9)) applyChunk(state, chunk, { replay: true });
    // The replay begins again from the turn's first event.
    state.fresh = true;
    for (const chunk of TURN) applyChunk(state, chunk, { replay: true });
    expect(defined(snapshot(state))).toEqual(defined(ours(TURN)));
  });

  it("UI18 hands transient data chunks (the turn's status) to the caller without keeping them", () => {
    const state = streamingMessage("generated");
    const effect = applyChunk(
      state,
      { type: "data-status", data: { turnId: "turn_1", state: "ready" }, transient: true },
      { replay: false },
    );
    expect(effect.data?.data).toEqual({ turnId: "turn_1", state: "ready" });
    expect(state.message.parts).toEqual([]);
  });

  it("UI18 approval requests and answers fold as useChat folds them, across the whole turn", async () => {
    const whole = [...SUSPENDED, ...CONTINUATION];
    for (let n = 1; n <= whole.length; n++) {
      const prefix = whole.slice(0, n);
      expect(defined(ours(prefix)), `after ${n} chunks`).toEqual(defined(await sdkMessage(prefix)));
    }
    const suspended = await sdkMessage(SUSPENDED);
    const requested = suspended?.parts.filter((part) => part.type === "tool-send_message");
    expect(requested).toMatchObject([
      {
        state: "approval-requested",
        approval: { id: "ap_1", requestReason: "You asked me to pass this on." },
      },
      { state: "approval-requested", approval: { id: "ap_2" } },
    ]);
  });

  it("UI18 a turn going on after its approvals continues the kept answer, as useChat continues it", async () => {
    const kept = await sdkMessage(SUSPENDED);
    if (!kept) throw new Error("no kept answer");
    for (let n = 1; n <= CONTINUATION.length; n++) {
      const prefix = CONTINUATION.slice(0, n);
      const state = continuingMessage(kept);
      let shown = snapshot(state);
      for (const chunk of prefix) {
        if (applyChunk(state, chunk, { replay: true }).changed) shown = snapshot(state);
      }
      expect(defined(shown), `after ${n} chunks`).toEqual(defined(await sdkMessage(prefix, kept)));
    }
    // The SDK's reader folds into the message it is given; ours into a copy.
    const fresh = await sdkMessage(SUSPENDED);
    if (!fresh) throw new Error("no kept answer");
    const state = continuingMessage(fresh);
    for (const chunk of CONTINUATION) applyChunk(state, chunk, { replay: true });
    expect(snapshot(state).parts.filter((part) => part.type === "tool-send_message")).toMatchObject(
      [
        { state: "output-available", approval: { id: "ap_1", approved: true } },
        { state: "output-denied", approval: { id: "ap_2", approved: false, reason: "not now" } },
      ],
    );
    expect(fresh.parts.some((part) => "state" in part && part.state === "output-available")).toBe(
      false,
    );
  });
});
