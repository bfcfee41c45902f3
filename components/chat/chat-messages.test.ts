// The chat's messages as useChat builds them over the workstream transport, checked against the
// messages the server persists for the same turns: the server folds each turn's chunks with the
// AI SDK's readUIMessageStream (lib/turns/run-turn.ts), continuing the kept answer when a turn
// goes on after its approvals; the browser gets the same chunks as SSE events, with offsets,
// turn statuses and the raw error chunk of a failed turn among them.
import { Chat } from "@ai-sdk/react";
import { readUIMessageStream, type UIMessageChunk } from "ai";
import { describe, expect, expectTypeOf, it, vi } from "vitest";
import type { SpecialistPartData } from "@/lib/agents/specialists";
import { WorkstreamTransport } from "@/lib/chat-client/transport";
import type { ChatMessage } from "@/lib/chat-client/wire";
import type { StatusChunk } from "@/lib/stream/types";
import { type ChatDataParts, dataPartSchemas, messageMetadataSchema } from "@/lib/stream/ui-parts";

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

const status = (state: string, extra: object = {}): UIMessageChunk =>
  ({
    type: "data-status",
    data: { turnId: "turn_1", state, ...extra },
    transient: true,
  }) as UIMessageChunk;

// A group workstream's lead consults a specialist: the nested part is sent again as it grows
// (same id), then the lead's own text.
const SPECIALIST: UIMessageChunk[] = [
  { type: "start", messageId: "msg_answer", messageMetadata: META },
  { type: "start-step" },
  {
    type: "tool-input-available",
    toolCallId: "call_s",
    toolName: "consult_specialist",
    input: { specialist: "Analyst", question: "How many?" },
  },
  ...["Thr", "Three."].map(
    (text, index): UIMessageChunk => ({
      type: "data-specialist",
      id: "spec_1",
      data: {
        agentId: "analyst",
        name: "Analyst",
        question: "How many?",
        text,
        status: index === 0 ? "working" : "done",
        steps: 1,
      },
    }),
  ),
  { type: "tool-output-available", toolCallId: "call_s", output: { answer: "Three." } },
  { type: "finish-step" },
  { type: "start-step" },
  { type: "text-start", id: "t1" },
  { type: "text-delta", id: "t1", delta: "The Analyst says three." },
  { type: "text-end", id: "t1" },
  { type: "finish-step" },
  { type: "finish", finishReason: "stop", messageMetadata: META },
];

// A turn that fails after some text: the log holds the provider's error chunk and the turn's
// `error` status; the server keeps the partial answer, marked failed.
const FAILED: UIMessageChunk[] = [
  { type: "start", messageId: "msg_answer", messageMetadata: META },
  { type: "start-step" },
  { type: "text-start", id: "t1" },
  { type: "text-delta", id: "t1", delta: "Half an ans" },
  { type: "error", errorText: "upstream failed" },
  { type: "message-metadata", messageMetadata: { ...META, failed: true } },
];

// A turn stopped mid-answer: the partial text stays, the metadata says it was stopped.
const STOPPED: UIMessageChunk[] = [
  { type: "start", messageId: "msg_answer", messageMetadata: META },
  { type: "start-step" },
  { type: "text-start", id: "t1" },
  { type: "text-delta", id: "t1", delta: "Once upon a" },
  { type: "message-metadata", messageMetadata: { ...META, stopped: true } },
];

/** What the log would hold: the chunks with offsets, and the statuses around them. */
function logged(chunks: UIMessageChunk[], end: UIMessageChunk): UIMessageChunk[] {
  return [
    status("acknowledged"),
    status("processing", { stage: "STREAM_RESPONSE" }),
    ...chunks,
    end,
  ];
}

/** The message the server persists: its own fold of the turn's chunks (the raw error left out). */
async function persisted(
  chunks: UIMessageChunk[],
  from?: ChatMessage,
): Promise<ChatMessage | undefined> {
  const kept = chunks.filter((chunk) => chunk.type !== "error");
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of kept) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: ChatMessage | undefined;
  const read = readUIMessageStream<ChatMessage>({
    stream,
    message: from ? structuredClone(from) : undefined,
  });
  for await (const message of read) last = message;
  return last;
}

function sse(chunks: UIMessageChunk[], firstOffset: number): Response {
  const body = chunks
    .map((chunk, index) => `id: ${firstOffset + index}\ndata: ${JSON.stringify(chunk)}\n\n`)
    .join("");
  return new Response(`${body}data: [DONE]\n\n`, {
    headers: { "content-type": "text/event-stream", "x-turn-id": "turn_1" },
  });
}

const USER: ChatMessage = { id: "msg_user", role: "user", parts: [{ type: "text", text: "Hi" }] };
const EARLIER: ChatMessage[] = [
  { id: "msg_old", role: "user", parts: [{ type: "text", text: "Before" }] },
  { id: "msg_old_answer", role: "assistant", parts: [{ type: "text", text: "Earlier answer" }] },
];

/**
 * A chat page over the transport, its server answering with `chunks` (from offset 10): a new
 * message sent, or (`resume`) the running turn followed, replayed from where `resumedOffset`
 * says. Returns the chat's messages when the stream is done, and what onData saw.
 */
async function chatAfter(
  chunks: UIMessageChunk[],
  {
    history = EARLIER,
    resume,
  }: { history?: ChatMessage[]; resume?: { resumedOffset: number | null } } = {},
) {
  const firstOffset = resume?.resumedOffset ?? 10;
  const fetch = vi.fn(async (url: string) => {
    if (url.includes("/messages") || url.includes("/events")) return sse(chunks, firstOffset);
    return Response.json({
      id: "w1",
      latestOffset: 9,
      isRunning: true,
      isCompacting: false,
      activeTurn: {
        id: "turn_1",
        state: "active",
        firstOffset: 10,
        resumedOffset: resume?.resumedOffset ?? null,
        userMessageId: USER.id,
      },
    });
  });
  const data: unknown[] = [];
  const chat = new Chat<ChatMessage>({
    id: "w1",
    messages: structuredClone(history),
    transport: new WorkstreamTransport({ workstreamId: "w1", fetch }),
    messageMetadataSchema,
    dataPartSchemas,
    onData: (part) => data.push(part),
  });
  if (resume) await chat.resumeStream();
  else await chat.sendMessage(USER);
  return { messages: chat.messages, data, status: chat.status, error: chat.error };
}

const END = status("ready");

describe("the chat's messages (useChat over the workstream transport)", () => {
  const turns: Array<[string, UIMessageChunk[], UIMessageChunk]> = [
    ["a turn with reasoning, tools and two steps", TURN, END],
    ["a consultation of a specialist", SPECIALIST, END],
    [
      "a failed turn",
      FAILED,
      status("error", { code: "provider:failed", message: "It failed.", retryable: true }),
    ],
    ["a stopped turn", STOPPED, status("cancelled", { reason: "You stopped it." })],
  ];

  for (const [name, chunks, end] of turns) {
    it(`UI18 builds the messages the server persisted: ${name}`, async () => {
      const { messages, error } = await chatAfter(logged(chunks, end));
      expect(error).toBeUndefined();
      expect(messages).toEqual([...EARLIER, USER, await persisted(chunks)]);
    });
  }

  it("UI18 builds the same answer at every point of the stream (what is on screen meanwhile)", async () => {
    for (let n = 1; n <= TURN.length; n++) {
      const prefix = TURN.slice(0, n);
      // A step boundary changes nothing on screen; the server's reader reports no copy for it.
      const last = prefix.at(-1)?.type;
      if (last === "start-step" || last === "finish-step") continue;
      const { messages } = await chatAfter(prefix);
      const expected = await persisted(prefix);
      expect(messages, `after ${n} chunks`).toEqual([...EARLIER, USER, expected]);
    }
  });

  it("UI18 a resumed turn (a reload mid-turn, a second tab) rebuilds its answer without duplicates", async () => {
    // On screen: the question and what history held of the answer so far.
    const partial = await persisted(TURN.slice(0, 9));
    if (!partial) throw new Error("no partial answer");
    const { messages } = await chatAfter(logged(TURN, END), {
      history: [...EARLIER, USER, partial],
      resume: { resumedOffset: null },
    });
    expect(messages).toEqual([...EARLIER, USER, await persisted(TURN)]);
  });

  it("UI18 follows a turn started elsewhere after the answers already on screen", async () => {
    const { messages } = await chatAfter(logged(TURN, END), {
      history: [...EARLIER, USER],
      resume: { resumedOffset: null },
    });
    expect(messages).toEqual([...EARLIER, USER, await persisted(TURN)]);
  });

  it("UI18 approval requests, and a turn going on after its answers continues the kept answer", async () => {
    const suspended = await chatAfter(
      logged(SUSPENDED, status("suspended", { reason: "Waiting for your approval." })),
    );
    const kept = await persisted(SUSPENDED);
    expect(suspended.messages).toEqual([...EARLIER, USER, kept]);
    expect(kept?.parts.filter((part) => part.type === "tool-send_message")).toMatchObject([
      {
        state: "approval-requested",
        approval: { id: "ap_1", requestReason: "You asked me to pass this on." },
      },
      { state: "approval-requested", approval: { id: "ap_2" } },
    ]);

    // The answers are in history (the server wrote them into the kept answer); the turn goes on
    // and its events from there continue that copy.
    const answered = await persisted(CONTINUATION.slice(0, 2), kept);
    if (!answered) throw new Error("no answered copy");
    const continued = await chatAfter([...CONTINUATION, END], {
      history: [...EARLIER, USER, answered],
      resume: { resumedOffset: 40 },
    });
    const expected = await persisted(CONTINUATION, kept);
    expect(continued.messages).toEqual([...EARLIER, USER, expected]);
    expect(expected?.parts.filter((part) => part.type === "tool-send_message")).toMatchObject([
      { state: "output-available", approval: { id: "ap_1", approved: true } },
      { state: "output-denied", approval: { id: "ap_2", approved: false, reason: "not now" } },
    ]);
  });

  it("UI18 the browser's data parts are the types the server writes", () => {
    expectTypeOf<ChatDataParts["specialist"]>().toEqualTypeOf<SpecialistPartData>();
    expectTypeOf<ChatDataParts["status"]>().toEqualTypeOf<StatusChunk["data"]>();
  });

  it("UI18 hands the turn's statuses to onData, typed and checked, without keeping them", async () => {
    const { messages, data } = await chatAfter(logged(TURN, END));
    expect(data).toContainEqual({
      type: "data-status",
      data: { turnId: "turn_1", state: "ready" },
      transient: true,
    });
    expect(messages.at(-1)?.parts.some((part) => part.type === "data-status")).toBe(false);
  });

  it("UI18 refuses a status outside the shared vocabulary instead of passing it on", async () => {
    const { error, data } = await chatAfter([...TURN, status("exploded")]);
    expect(error?.name).toBe("AI_TypeValidationError");
    expect(
      data.some((part) => (part as { data: { state: string } }).data.state === "exploded"),
    ).toBe(false);
  });
});
