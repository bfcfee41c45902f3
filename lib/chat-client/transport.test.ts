import type { UIMessageChunk } from "ai";
import { describe, expect, it, vi } from "vitest";
import { WorkstreamTransport } from "./transport";
import type { ChatMessage } from "./wire";

const encoder = new TextEncoder();

function sseResponse(body: string, headers: Record<string, string> = {}): Response {
  return new Response(encoder.encode(`${body}data: [DONE]\n\n`), {
    headers: { "content-type": "text/event-stream", ...headers },
  });
}

function jsonResponse(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json" },
  });
}

const user = (id: string, text: string): ChatMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
});

async function collect(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const description = (activeTurn: object | null) => ({
  id: "w1",
  title: "Chief",
  mode: "direct",
  agentId: "chief",
  status: "regular",
  isRunning: activeTurn !== null,
  isCompacting: false,
  activeTurn,
  latestOffset: 12,
  updatedAt: new Date(0).toISOString(),
});

const sendOptions = (messages: ChatMessage[], messageId?: string) => ({
  trigger: "submit-message" as const,
  chatId: "w1",
  messageId,
  messages,
  abortSignal: undefined,
});

describe("WorkstreamTransport", () => {
  it("POSTs only the new user message and streams the turn", async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) =>
      sseResponse(`id: 3\ndata: {"type":"text-delta","id":"t","delta":"Hi"}\n\n`, {
        "x-turn-id": "turn_1",
      }),
    );
    const onAccepted = vi.fn();
    const transport = new WorkstreamTransport({
      workstreamId: "w1",
      fetch,
      events: { onAccepted },
    });
    const stream = await transport.sendMessages(
      sendOptions([
        user("m1", "old"),
        { id: "a1", role: "assistant", parts: [] },
        user("m2", "new"),
      ]),
    );
    expect(await collect(stream)).toEqual([{ type: "text-delta", id: "t", delta: "Hi" }]);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe("/api/workstreams/w1/messages");
    expect(JSON.parse(String(init?.body))).toEqual({
      message: { id: "m2", role: "user", parts: [{ type: "text", text: "new" }] },
    });
    expect(onAccepted).toHaveBeenCalledWith({ messageId: "m2", turnId: "turn_1" });
  });

  it("re-POSTs the chosen message for Retry", async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => sseResponse(""));
    const transport = new WorkstreamTransport({ workstreamId: "w1", fetch });
    await collect(await transport.sendMessages(sendOptions([user("m1", "again")], "m1")));
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body)).message.id).toBe("m1");
  });

  it("throws the server's error code with the message id", async () => {
    const fetch = vi.fn(async () =>
      jsonResponse(
        { error: { code: "conflict:turn_active", message: "busy", turnId: "turn_9" } },
        409,
      ),
    );
    const transport = new WorkstreamTransport({ workstreamId: "w1", fetch });
    await expect(transport.sendMessages(sendOptions([user("m1", "x")]))).rejects.toMatchObject({
      code: "conflict:turn_active",
      status: 409,
      messageId: "m1",
      details: { turnId: "turn_9" },
    });
  });

  it("resumes a running turn from its first event", async () => {
    const fetch = vi.fn(async (url: string) =>
      url.includes("/events")
        ? sseResponse(`id: 10\ndata: {"type":"start","messageId":"a1"}\n\n`)
        : jsonResponse(
            description({ id: "turn_1", state: "active", firstOffset: 10, userMessageId: "m1" }),
          ),
    );
    const transport = new WorkstreamTransport({ workstreamId: "w1", fetch });
    const stream = await transport.reconnectToStream({ chatId: "w1" });
    expect(stream).not.toBeNull();
    expect(await collect(stream as ReadableStream<UIMessageChunk>)).toEqual([
      { type: "start", messageId: "a1" },
    ]);
    expect(fetch.mock.calls[1]?.[0]).toBe("/api/workstreams/w1/events?after=9");
  });

  it("resumes a turn that went on after its approvals from where it went on, continuing the kept answer", async () => {
    const fetch = vi.fn(async (url: string) =>
      url.includes("/events")
        ? sseResponse(
            `id: 31\ndata: {"type":"tool-approval-response","approvalId":"ap_1","approved":true}\n\n`,
          )
        : jsonResponse(
            description({
              id: "turn_1",
              state: "active",
              firstOffset: 10,
              resumedOffset: 31,
              userMessageId: "m1",
            }),
          ),
    );
    const transport = new WorkstreamTransport({ workstreamId: "w1", fetch });
    const resumed = await transport.reconnectToStream({ chatId: "w1" });
    // useChat reads this once the stream is there: the chunks continue, they do not replay.
    expect(transport.resumeStreamIsReplay).toBe(false);
    expect(await collect(resumed as ReadableStream<UIMessageChunk>)).toEqual([
      { type: "tool-approval-response", approvalId: "ap_1", approved: true },
    ]);
    expect(fetch.mock.calls[1]?.[0]).toBe("/api/workstreams/w1/events?after=30");
  });

  it("resumes nothing while the turn waits for an approval", async () => {
    const onNothingToResume = vi.fn();
    const fetch = vi.fn(async () =>
      jsonResponse(
        description({
          id: "turn_1",
          state: "suspended",
          firstOffset: 10,
          resumedOffset: null,
          userMessageId: "m1",
        }),
      ),
    );
    const transport = new WorkstreamTransport({
      workstreamId: "w1",
      fetch,
      events: { onNothingToResume },
    });
    expect(await transport.reconnectToStream({ chatId: "w1" })).toBeNull();
    expect(onNothingToResume).toHaveBeenCalled();
  });

  it("resumes nothing when no turn runs, and says what it found", async () => {
    const onNothingToResume = vi.fn();
    const fetch = vi.fn(async () => jsonResponse(description(null)));
    const transport = new WorkstreamTransport({
      workstreamId: "w1",
      fetch,
      events: { onNothingToResume },
    });
    expect(await transport.reconnectToStream({ chatId: "w1" })).toBeNull();
    expect(onNothingToResume).toHaveBeenCalledWith(expect.objectContaining({ latestOffset: 12 }));
  });
});
