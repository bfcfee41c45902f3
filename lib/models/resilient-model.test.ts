import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createResilientModel, type Pacing } from "./resilient-model";

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};

function answering(words: string[]): MockLanguageModelV4 {
  const parts: LanguageModelV4StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    ...words.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
  ];
  return new MockLanguageModelV4({
    doStream: async () => ({ stream: convertArrayToReadableStream(parts) }),
  });
}

function resilient(primary: MockLanguageModelV4, pacing: Pacing) {
  return createResilientModel({
    primary,
    attemptsPerModel: 1,
    retryBaseMs: 1,
    firstTokenTimeoutMs: 5_000,
    idleTimeoutMs: 5_000,
    pacing,
  });
}

const call = {
  prompt: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }],
};

/** A few turns of the event loop: long enough for anything that is not waiting to happen. */
async function eventLoopTurns(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

function deltasOf(parts: LanguageModelV4StreamPart[]): string[] {
  return parts.flatMap((part) => (part.type === "text-delta" ? [part.delta] : []));
}

describe("pacing the rest of an answer behind its first text", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("H2 T17 the rest of the answer waits until the first text is released, then follows in order", async () => {
    // The hold gives up after a few milliseconds by a timer: on a loaded machine the event-loop
    // turns below can take longer than that, so the timers stand still here.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let release: () => void = () => {};
    const pacing: Pacing = { afterFirstText: new Promise<void>((r) => (release = r)) };
    const { stream } = await resilient(answering(["Hello", " there", " friend"]), pacing).doStream(
      call,
    );
    const reader = stream.getReader();
    const seen: LanguageModelV4StreamPart[] = [];
    while (!seen.some((part) => part.type === "text-delta")) {
      const next = await reader.read();
      if (next.done) throw new Error("the stream ended before its first text");
      seen.push(next.value);
    }
    expect(deltasOf(seen)).toEqual(["Hello"]);

    let held = true;
    const after = reader.read().then((next) => {
      held = false;
      return next;
    });
    await eventLoopTurns();
    expect(held).toBe(true);

    release();
    const next = await after;
    expect(next.value).toMatchObject({ type: "text-delta", delta: " there" });
    if (next.value) seen.push(next.value);
    for (;;) {
      const more = await reader.read();
      if (more.done) break;
      seen.push(more.value);
    }
    expect(deltasOf(seen)).toEqual(["Hello", " there", " friend"]);
    expect(seen.at(-1)?.type).toBe("finish");
  });

  it("H2 T17 a hold that is never released delays the answer but never stalls it, and holds only once", async () => {
    const pacing: Pacing = { afterFirstText: new Promise<void>(() => {}) };
    const model = resilient(answering(["one", " two"]), pacing);
    const read = async () => {
      const parts: LanguageModelV4StreamPart[] = [];
      const reader = (await model.doStream(call)).stream.getReader();
      for (;;) {
        const next = await reader.read();
        if (next.done) return parts;
        parts.push(next.value);
      }
    };
    expect(deltasOf(await read())).toEqual(["one", " two"]);
    // Spent: the next call (a later step of the same turn) is not held.
    expect(pacing.afterFirstText).toBeUndefined();
    const second = read();
    let finished = false;
    void second.then(() => {
      finished = true;
    });
    await eventLoopTurns();
    expect(finished).toBe(true);
    expect(deltasOf(await second)).toEqual(["one", " two"]);
  });

  it("H2 T17 an answer without text is never held", async () => {
    let released = false;
    const pacing: Pacing = {
      afterFirstText: new Promise<void>(() => {}).finally(() => {
        released = true;
      }),
    };
    const parts: LanguageModelV4StreamPart[] = [];
    const reader = (await resilient(answering([]), pacing).doStream(call)).stream.getReader();
    const drained = (async () => {
      for (;;) {
        const next = await reader.read();
        if (next.done) return;
        parts.push(next.value);
      }
    })();
    let done = false;
    void drained.then(() => {
      done = true;
    });
    await eventLoopTurns();
    expect(done).toBe(true);
    expect(parts.at(-1)?.type).toBe("finish");
    // Still armed for a later step that does stream text.
    expect(pacing.afterFirstText).toBeDefined();
    expect(released).toBe(false);
  });
});
