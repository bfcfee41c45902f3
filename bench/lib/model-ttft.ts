// The offline model's own time to first token, measured in this process by calling the model
// directly (doStream) with the same user message the servers get. The model is deterministic:
// its first-token delay is seeded from the message text (0–20 ms) and the first text delta then
// waits one chunk delay. The benchmark picks messages whose seeded first-token delay is 0, so
// every turn's model TTFT is just the chunk delay, and subtracts the measured value.
import { performance } from "node:perf_hooks";
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { config } from "@/lib/config";
import { createOfflineModel } from "@/lib/models/offline-model";
import { median } from "./stats";

function promptFor(text: string): LanguageModelV4Prompt {
  return [
    { role: "system", content: config.agents.chief.persona },
    { role: "user", content: [{ type: "text", text }] },
  ];
}

/** ms from doStream() to the first text-delta part of the model's stream. */
export async function modelFirstTextMs(text: string, chunkDelayMs: number): Promise<number> {
  const model = createOfflineModel({ chunkDelayMs });
  const started = performance.now();
  const { stream } = await model.doStream({ prompt: promptFor(text) });
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return Number.NaN;
      if (value.type === "text-delta") return performance.now() - started;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

type SeedModules = {
  parse: (text: string) => { cleanText: string };
  hash: (text: string) => number;
};

/**
 * A fast pre-filter: the offline model seeds its first-token delay as hash(clean text) % 21.
 * Loaded by name at run time (internal modules; if they move, every candidate is measured).
 */
async function seedPrefilter(): Promise<((text: string) => boolean) | null> {
  const modelModule = "@/lib/models/offline-model";
  const randomModule = "@/lib/models/offline/random";
  try {
    const model = (await import(modelModule)) as { parseOfflineTriggers?: SeedModules["parse"] };
    const random = (await import(randomModule)) as { hashString?: SeedModules["hash"] };
    const parse = model.parseOfflineTriggers;
    const hash = random.hashString;
    if (typeof parse !== "function" || typeof hash !== "function") return null;
    return (text) => hash(parse(text).cleanText) % 21 === 0;
  } catch {
    return null;
  }
}

/**
 * `count` messages `make(i)` (i = 0, 1, …, skipping some) whose seeded first-token delay is 0,
 * confirmed by measurement: with chunk delay 0 their first text arrives without any timer.
 */
export async function zeroDelayMessages(
  count: number,
  make: (i: number) => string,
): Promise<string[]> {
  const prefilter = await seedPrefilter();
  const out: string[] = [];
  for (let i = 0; out.length < count && i < count * 200; i++) {
    const text = make(i);
    if (prefilter && !prefilter(text)) continue;
    const a = await modelFirstTextMs(text, 0);
    if (a >= 0.9) continue;
    // Confirm (a GC pause can make a 1 ms delay look like 0 only in the other direction).
    const b = await modelFirstTextMs(text, 0);
    if (b < 0.9) out.push(text);
  }
  if (out.length < count) throw new Error("could not find messages with zero first-token delay");
  return out;
}

/** The model's TTFT for these messages at `chunkDelayMs`: median of `repeats` calls each. */
export async function measureModelTtft(
  texts: readonly string[],
  chunkDelayMs: number,
  repeats = 3,
): Promise<number[]> {
  const out: number[] = [];
  // A few at a time: the model only waits on timers, so small batches do not disturb each other.
  for (let start = 0; start < texts.length; start += 10) {
    const batch = texts.slice(start, start + 10);
    const medians = await Promise.all(
      batch.map(async (text) => {
        const samples: number[] = [];
        for (let r = 0; r < repeats; r++) samples.push(await modelFirstTextMs(text, chunkDelayMs));
        return median(samples);
      }),
    );
    out.push(...medians);
  }
  return out;
}
