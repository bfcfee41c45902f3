/**
 * Tests the offline model through the real AI SDK (streamText / generateText / Output / tool
 * loops): input-dependent deterministic answers, delta sizes, usage, every trigger and abort.
 * Structured output and tool calls are in offline-model.tools.test.ts; schema sampling, trigger
 * parsing and chunking in offline/offline-internals.test.ts.
 */
import { APICallError } from "@ai-sdk/provider";
import { generateText, streamText } from "ai";
import { countTokens } from "gpt-tokenizer";
import { beforeEach, describe, expect, it } from "vitest";
import {
  createOfflineModel,
  OFFLINE_TRIGGERS,
  registerOfflineAnswers,
  resetOfflineModelState,
} from "./offline-model";

const fast = () => createOfflineModel({ chunkDelayMs: 0, firstTokenDelayMs: 0, retryAfterMs: 0 });

async function collect(prompt: string, model = fast()) {
  const errors: unknown[] = [];
  const result = streamText({
    model,
    prompt,
    maxRetries: 0,
    onError: ({ error }) => errors.push(error),
  });
  const parts: Array<{ type: string; text?: string }> = [];
  for await (const part of result.stream) parts.push(part);
  const deltas = parts.flatMap((p) =>
    p.type === "text-delta" && p.text !== undefined ? [p.text] : [],
  );
  return { result, parts, deltas, errors, text: deltas.join("") };
}

beforeEach(() => resetOfflineModelState());

describe("offline model: answers", () => {
  it("is a LanguageModelV4 from provider 'offline'", () => {
    const model = createOfflineModel();
    expect(model.specificationVersion).toBe("v4");
    expect(model.provider).toBe("offline");
    expect(model.modelId).toBe("offline-1");
    expect(createOfflineModel({ modelId: "offline-2" }).modelId).toBe("offline-2");
  });

  it("answers depending on the input, deterministically, with the offline note once", async () => {
    const a1 = await collect("How do I set up nightly Postgres backups to S3?");
    const a2 = await collect("How do I set up nightly Postgres backups to S3?");
    const b = await collect("Give me some ideas for a team offsite in Lisbon");
    expect(a1.text).toBe(a2.text);
    expect(a1.text).not.toBe(b.text);
    expect(a1.text).toContain("nightly, Postgres and backups");
    expect(b.text).toContain("Lisbon");
    expect(a1.text.match(/offline model/gi)).toHaveLength(1);
    expect(a1.text).toContain("OPENAI_API_KEY");
  });

  it("does not repeat the offline note later in the same conversation", async () => {
    const first = await generateText({ model: fast(), prompt: "What is a vector database?" });
    const second = await generateText({
      model: fast(),
      messages: [
        { role: "user", content: "What is a vector database?" },
        { role: "assistant", content: first.text },
        { role: "user", content: "And how would I index embeddings in one?" },
      ],
    });
    expect(first.text).toContain("OPENAI_API_KEY");
    expect(second.text).not.toContain("OPENAI_API_KEY");
    expect(second.text.length).toBeGreaterThan(200);
  });

  it("includes a code block in the requested language when asked for code", async () => {
    const { text } = await collect(
      "Write a Python function that parses CSV files into dictionaries",
    );
    expect(text).toMatch(/```python\n[\s\S]+\n```/);
    expect(text).toMatch(/def parses\w*\(value: str\)/);
  });

  it("streams realistic text deltas of 36–72 characters", async () => {
    const { deltas, result } = await collect("[long] How should I structure a monorepo?");
    expect(deltas.length).toBeGreaterThan(30);
    for (const delta of deltas.slice(0, -1)) {
      expect(delta.length).toBeGreaterThanOrEqual(36);
      expect(delta.length).toBeLessThanOrEqual(72);
    }
    expect(deltas.at(-1)?.length ?? 0).toBeLessThanOrEqual(72);
    expect(deltas.join("")).toBe(await result.text);
  });

  it("reports V4 usage: exact output tokens, input tokens that grow with the prompt", async () => {
    const short = await generateText({ model: fast(), prompt: "Hi" });
    const long = await generateText({
      model: fast(),
      prompt: `Summarize this: ${"lorem ipsum ".repeat(200)}`,
    });
    expect(short.usage.outputTokens).toBe(countTokens(short.text));
    expect(short.usage.inputTokens ?? 0).toBeGreaterThan(0);
    expect(long.usage.inputTokens ?? 0).toBeGreaterThan(400);
    expect(long.usage.inputTokens ?? 0).toBeLessThan(600);
    expect(short.usage.totalTokens).toBe(
      (short.usage.inputTokens ?? 0) + (short.usage.outputTokens ?? 0),
    );
    expect(short.finishReason).toBe("stop");
  });

  it("gives the same answer from doGenerate and doStream", async () => {
    const prompt = "Explain how DNS works";
    const generated = await generateText({ model: fast(), prompt });
    expect((await collect(prompt)).text).toBe(generated.text);
  });

  it("honours maxOutputTokens with finishReason 'length'", async () => {
    const result = await generateText({
      model: fast(),
      prompt: "[long] Plan a product launch",
      maxOutputTokens: 12,
    });
    expect(result.finishReason).toBe("length");
    expect(result.usage.outputTokens).toBeLessThanOrEqual(12);
  });

  it("answers a background task with the answer registered for it, reading the prompt without triggers", async () => {
    const seen: string[] = [];
    registerOfflineAnswers({
      tasks: {
        "test-shout": ({ prompt }) => {
          seen.push(prompt);
          return prompt.toUpperCase();
        },
      },
    });
    const task = { offline: { task: "test-shout" } };
    const result = await generateText({
      model: fast(),
      prompt: "Member: plan the harbour [long]\n  in two steps [fail]",
      providerOptions: task,
    });
    expect(result.text).toBe("MEMBER: PLAN THE HARBOUR\n  IN TWO STEPS");
    expect(seen).toEqual(["Member: plan the harbour\n  in two steps"]);
    // [slow-compaction:MS] in the transcript makes the task take that much longer.
    const started = Date.now();
    await generateText({
      model: fast(),
      prompt: "Member: wait [slow-compaction:300]",
      providerOptions: task,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    // A task nobody registered is an ordinary message.
    const plain = await generateText({
      model: fast(),
      prompt: "[echo] hello",
      providerOptions: { offline: { task: "nobody" } },
    });
    expect(plain.text).toBe("hello");
  });
});

describe("offline model: triggers", () => {
  it("exports the trigger table", () => {
    expect(OFFLINE_TRIGGERS.map((t) => t.trigger)).toEqual(
      expect.arrayContaining([
        "[long]",
        "[slow:MS]",
        "[fail:N]",
        "[tool:NAME:JSON]",
        "[hang]",
        "[words:N]",
      ]),
    );
    for (const t of OFFLINE_TRIGGERS) expect(t.effect.length).toBeGreaterThan(10);
  });

  it("[echo] answers with exactly the user's text minus triggers", async () => {
    expect((await collect("[echo] Hello, world!  Keep   spacing.")).text).toBe(
      "Hello, world!  Keep   spacing.",
    );
    expect((await collect("Say [ECHO] this back")).text).toBe("Say this back");
  });

  it("[words:N] answers with exactly N words", async () => {
    for (const n of [1, 7, 250]) {
      const { text } = await collect(`[words:${n}] tell me about rivers`);
      expect(text.split(/\s+/).filter(Boolean)).toHaveLength(n);
    }
    expect((await collect("[words:0]")).text).toBe("");
  });

  it("[long] gives a multi-section answer of about 3–4k characters", async () => {
    const { text } = await collect("[long] How should we run database migrations safely?");
    expect(text.length).toBeGreaterThanOrEqual(3000);
    expect(text.length).toBeLessThanOrEqual(4500);
    expect(text.match(/^## /gm)?.length ?? 0).toBeGreaterThanOrEqual(5);
  });

  it("[reason] emits a reasoning part before the text", async () => {
    const { parts, result } = await collect("[reason] Why is the sky blue?");
    const types = parts.map((p) => p.type);
    expect(types.indexOf("reasoning-start")).toBeGreaterThan(-1);
    expect(types.indexOf("reasoning-end")).toBeLessThan(types.indexOf("text-start"));
    expect(await result.reasoningText).toContain("sky and blue");
    expect((await result.usage).outputTokenDetails.reasoningTokens ?? 0).toBeGreaterThan(0);
  });

  it("[slow] and [slow:MS] slow the stream down", async () => {
    const model = createOfflineModel({ chunkDelayMs: 3, firstTokenDelayMs: 0 });
    const timed = async (prompt: string) => {
      const start = performance.now();
      const { deltas } = await collect(prompt, model);
      return { ms: performance.now() - start, deltas: deltas.length };
    };
    const slow = await timed("[slow] [words:60] go");
    expect(slow.ms).toBeGreaterThanOrEqual(slow.deltas * 30 * 0.8);
    const fixed = await timed("[slow:40] [words:40] go");
    expect(fixed.ms).toBeGreaterThanOrEqual(fixed.deltas * 40 * 0.8);
  });

  it("[fail] throws a retryable APICallError before emitting anything", async () => {
    const error = await generateText({
      model: fast(),
      prompt: "[fail] hello",
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(APICallError.isInstance(error) && error.isRetryable && error.statusCode === 503).toBe(
      true,
    );
    const { parts, errors } = await collect("[fail] hello");
    expect(parts.some((p) => p.type === "text-delta")).toBe(false);
    expect(parts.some((p) => p.type === "error")).toBe(true);
    expect(errors.every((e) => APICallError.isInstance(e))).toBe(true);
  });

  it("[fail:N] fails the first N calls for the same prompt, then succeeds", async () => {
    const call = () =>
      generateText({ model: fast(), prompt: "[fail:2] Are you there?", maxRetries: 0 });
    await expect(call()).rejects.toThrow(/simulated a temporary outage \(1 of 2/);
    await expect(call()).rejects.toThrow(/2 of 2/);
    expect((await call()).text.length).toBeGreaterThan(50);
    resetOfflineModelState();
    await expect(call()).rejects.toThrow(/1 of 2/);
    resetOfflineModelState();
    // The AI SDK's own retries (default maxRetries: 2) get past it.
    const retried = await generateText({ model: fast(), prompt: "[fail:2] Are you there?" });
    expect(retried.text.length).toBeGreaterThan(50);
  });

  it("[fail-after-text] emits some text, then the stream errors", async () => {
    const { parts, deltas, errors } = await collect("[fail-after-text] Tell me about sailing");
    expect(deltas.length).toBeGreaterThan(0);
    expect(errors).toHaveLength(1);
    const firstError = parts.findIndex((p) => p.type === "error");
    expect(firstError).toBeGreaterThan(parts.findIndex((p) => p.type === "text-delta"));
    await expect(
      generateText({ model: fast(), prompt: "[fail-after-text] x", maxRetries: 0 }),
    ).rejects.toThrow(/interrupted/);
  });
});

describe("offline model: abort", () => {
  it("[hang] emits the first delta and then waits until aborted", async () => {
    const controller = new AbortController();
    const result = streamText({
      model: fast(),
      prompt: "[hang] hello",
      abortSignal: controller.signal,
    });
    const types: string[] = [];
    for await (const part of result.stream) {
      types.push(part.type);
      if (part.type === "text-delta") setTimeout(() => controller.abort(), 20);
    }
    expect(types.filter((t) => t === "text-delta")).toHaveLength(1);
    expect(types.at(-1)).toBe("abort");
  });

  // How fast the stream stops is the benchmark's business; this checks that it ends with an
  // abort part instead of running on to the end of the answer.
  it("ends a slow stream with an abort part, without the rest of the answer", async () => {
    const controller = new AbortController();
    const model = createOfflineModel({ chunkDelayMs: 200, firstTokenDelayMs: 0 });
    const result = streamText({
      model,
      prompt: "[long] a long story",
      abortSignal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const types: string[] = [];
    for await (const part of result.stream) types.push(part.type);
    expect(types).toContain("abort");
    expect(types.filter((t) => t === "text-delta").length).toBeLessThan(2);
  });

  it("rejects doGenerate with an AbortError", async () => {
    const error = await generateText({
      model: fast(),
      prompt: "[hang] x",
      abortSignal: AbortSignal.timeout(30),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error instanceof Error && ["AbortError", "TimeoutError"].includes(error.name)).toBe(
      true,
    );
  });
});
