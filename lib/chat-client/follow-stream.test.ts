import type { UIMessageChunk } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type FollowStreamOptions, followTurnStream } from "./follow-stream";

const encoder = new TextEncoder();

function event(offset: number, chunk: object): string {
  return `id: ${offset}\ndata: ${JSON.stringify(chunk)}\n\n`;
}
const text = (offset: number, delta: string) =>
  event(offset, { type: "text-delta", id: "t", delta });

/** A response whose body sends `parts`, then ends (`[DONE]` if asked) or breaks. */
function sse(parts: string[], end: "done" | "close" | "error" = "done"): Response {
  const queue = [...parts];
  if (end === "done") queue.push("data: [DONE]\n\n");
  // Pull-based, so an erroring body still delivers what came before the error.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const part = queue.shift();
      if (part !== undefined) controller.enqueue(encoder.encode(part));
      else if (end === "error") controller.error(new TypeError("network error"));
      else controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

async function collect(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const deltas = (chunks: UIMessageChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : []));

const instant = { wait: async () => {}, isOnline: () => true, random: () => 0 };

function options(overrides: Partial<FollowStreamOptions>): FollowStreamOptions {
  return {
    response: null,
    after: null,
    reconnect: async () => sse([]),
    locate: async () => 0,
    environment: instant,
    ...overrides,
  };
}

describe("followTurnStream", () => {
  // Drops and failed reconnects are logged; these tests cause them on purpose.
  beforeEach(() => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("parses events into chunks and ends at [DONE]", async () => {
    const chunks = await collect(
      followTurnStream(options({ response: sse([text(1, "Hel"), text(2, "lo")]) })),
    );
    expect(deltas(chunks)).toEqual(["Hel", "lo"]);
  });

  it("reads events split at any byte, with CRLF line ends and heartbeat comments between", async () => {
    const wire = `: ping\r\n\r\n${text(1, "Hel").replaceAll("\n", "\r\n")}: ping\n\n${text(2, "lo")}`;
    const chunks = await collect(
      followTurnStream(options({ response: sse([...wire, "data: [DONE]\n\n"], "close") })),
    );
    expect(deltas(chunks)).toEqual(["Hel", "lo"]);
  });

  it("joins multi-line data, and drops an event the connection cut off before its end", async () => {
    const reconnect = vi.fn(async () => sse([text(2, "!")]));
    const multiLine = 'id: 1\ndata: {"type":"text-delta",\ndata: "id":"t","delta":"Hi"}\n\n';
    const chunks = await collect(
      followTurnStream(
        options({
          response: sse([multiLine, `id: 2\ndata: {"type":"text-delta"`], "close"),
          reconnect,
        }),
      ),
    );
    expect(deltas(chunks)).toEqual(["Hi", "!"]);
    expect(reconnect).toHaveBeenCalledWith(1, expect.anything());
  });

  it("reconnects after a drop from the last offset, without duplicates", async () => {
    const reconnect = vi.fn(async (after: number) => {
      expect(after).toBe(2);
      // The server may resend what the client already has; offsets filter it out.
      return sse([text(2, "lo"), text(3, " world")]);
    });
    const states: string[] = [];
    const chunks = await collect(
      followTurnStream(
        options({
          response: sse([text(1, "Hel"), text(2, "lo")], "error"),
          reconnect,
          onConnection: (state) => states.push(state),
        }),
      ),
    );
    expect(deltas(chunks)).toEqual(["Hel", "lo", " world"]);
    expect(reconnect).toHaveBeenCalledTimes(1);
    expect(states).toEqual(["reconnecting", "connected"]);
  });

  it("treats a close without [DONE] as a drop", async () => {
    const reconnect = vi.fn(async () => sse([text(2, "!")]));
    const chunks = await collect(
      followTurnStream(options({ response: sse([text(1, "Hi")], "close"), reconnect })),
    );
    expect(deltas(chunks)).toEqual(["Hi", "!"]);
  });

  it("forwards turn statuses and drops the raw error chunk of a failed turn", async () => {
    const status = {
      turnId: "t1",
      state: "error",
      code: "model:failed",
      message: "x",
      retryable: true,
    };
    const chunks = await collect(
      followTurnStream(
        options({
          response: sse([
            event(1, { type: "error", errorText: "x" }),
            event(2, { type: "data-status", data: status, transient: true }),
          ]),
        }),
      ),
    );
    expect(chunks).toEqual([{ type: "data-status", data: status, transient: true }]);
  });

  it("locates the turn when the connection dropped before its first event", async () => {
    const reconnect = vi.fn(async () => sse([text(5, "a")]));
    const chunks = await collect(
      followTurnStream(options({ response: sse([], "error"), locate: async () => 4, reconnect })),
    );
    expect(reconnect).toHaveBeenCalledWith(4, expect.anything());
    expect(deltas(chunks)).toEqual(["a"]);
  });

  it("reports a turn it cannot find again", async () => {
    const onLost = vi.fn();
    const chunks = await collect(
      followTurnStream(options({ response: sse([], "error"), locate: async () => null, onLost })),
    );
    expect(chunks).toEqual([]);
    expect(onLost).toHaveBeenCalledOnce();
  });

  it("backs off through failed reconnects and gives up after maxAttempts", async () => {
    const wait = vi.fn(async () => {});
    const reconnect = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    const stream = followTurnStream(
      options({
        response: sse([text(1, "a")], "error"),
        reconnect,
        retry: { maxAttempts: 3 },
        environment: { ...instant, wait },
      }),
    );
    await expect(collect(stream)).rejects.toMatchObject({ code: "network:lost" });
    expect(reconnect).toHaveBeenCalledTimes(3);
    expect(wait).toHaveBeenCalledTimes(2);
  });

  it("stops at a 4xx answer instead of retrying", async () => {
    const reconnect = vi.fn(
      async () =>
        new Response(JSON.stringify({ error: { code: "unauthorized:session", message: "no" } }), {
          status: 401,
        }),
    );
    await expect(
      collect(followTurnStream(options({ response: sse([text(1, "a")], "error"), reconnect }))),
    ).rejects.toMatchObject({ code: "unauthorized:session", status: 401 });
    expect(reconnect).toHaveBeenCalledTimes(1);
  });

  it("ends quietly when the reader aborts", async () => {
    const abort = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(text(1, "a")));
      },
    });
    const stream = followTurnStream(
      options({ response: new Response(body), signal: abort.signal }),
    );
    const reader = stream.getReader();
    expect((await reader.read()).value).toMatchObject({ delta: "a" });
    abort.abort();
    expect((await reader.read()).done).toBe(true);
  });
});
