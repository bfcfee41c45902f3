/**
 * The offline model: the app's default LanguageModelV4 when no provider is configured (no API
 * key, no network). It streams deterministic, input-dependent markdown answers, supports tool
 * calls, structured output, reasoning and usage, and reacts to bracketed test triggers (see
 * OFFLINE_TRIGGERS). It knows no domain: the domains' own answers to their background tasks and
 * tools are registered with registerOfflineAnswers at start-up (root/offline-answers.ts). This
 * file owns the model object (doGenerate / doStream); planning, texts, the schema filler,
 * triggers and timing live in ./offline/.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { buildPlan, type OfflinePlan, type PlanSettings, resetPlanState } from "./offline/plan";
import { createRng } from "./offline/random";
import {
  chunkText,
  createAbortError,
  createTimedStream,
  simulatedOutageError,
  sleep,
  type TimedStep,
  waitForAbort,
} from "./offline/timing";
import { countTextTokens, makeUsage } from "./offline/tokens";

export {
  documentedRequests,
  type OfflineAnswers,
  registerOfflineAnswers,
} from "./offline/answers";
export {
  OFFLINE_TRIGGERS,
  type OfflineTrigger,
  parseTriggers as parseOfflineTriggers,
} from "./offline/triggers";

export const OFFLINE_PROVIDER = "offline";
export const OFFLINE_MODEL_ID = "offline-1";

export interface OfflineModelOptions {
  /** Model id reported to the AI SDK. Default "offline-1". */
  modelId?: string;
  /** Delay between streamed deltas in ms. Default 15. `[slow]` multiplies it by 10. */
  chunkDelayMs?: number;
  /** Delay before the first token in ms. Default: 0–20 ms, seeded from the prompt. */
  firstTokenDelayMs?: number;
  /** `retry-after-ms` sent with simulated `[fail]` errors (the AI SDK honours it). Default 250. */
  retryAfterMs?: number;
}

/** Clears the `[fail:N]` call counters (for tests). */
export function resetOfflineModelState(): void {
  resetPlanState();
}

function failAfterTextError(modelId: string): Error {
  return simulatedOutageError({
    modelId,
    message: "The offline model's stream was interrupted ([fail-after-text] trigger).",
    retryAfterMs: 0,
    retryable: false,
  });
}

function outputTokens(plan: OfflinePlan, text: string) {
  const toolTokens = plan.toolCalls.reduce(
    (sum, call) => sum + countTextTokens(call.toolName) + countTextTokens(call.input),
    0,
  );
  return {
    inputTokens: plan.inputTokens,
    textTokens: countTextTokens(text) + toolTokens,
    reasoningTokens: plan.reasoning ? countTextTokens(plan.reasoning) : 0,
  };
}

function streamSteps(plan: OfflinePlan, modelId: string): TimedStep[] {
  const rng = createRng(plan.seed ^ 0x9e3779b9);
  const delay = plan.chunkDelayMs;
  const steps: TimedStep[] = [];
  let hangPending = plan.hang;
  const push = (part: Extract<TimedStep, { kind: "part" }>["part"], delayMs = 0) => {
    steps.push({ kind: "part", part, delayMs });
  };
  const afterDelta = () => {
    if (hangPending) steps.push({ kind: "hang" });
    hangPending = false;
  };

  push({ type: "stream-start", warnings: [] });
  push(
    { type: "response-metadata", id: plan.responseId, modelId, timestamp: new Date() },
    plan.firstTokenDelayMs,
  );
  if (plan.reasoning) {
    push({ type: "reasoning-start", id: "reasoning-0" });
    for (const delta of chunkText(plan.reasoning, rng)) {
      push({ type: "reasoning-delta", id: "reasoning-0", delta }, delay);
      afterDelta();
    }
    push({ type: "reasoning-end", id: "reasoning-0" });
  }

  let emitted = plan.text;
  if (plan.text.length > 0) {
    const chunks = chunkText(plan.text, rng);
    const shown = plan.failAfterText
      ? chunks.slice(0, Math.min(3, Math.max(1, Math.ceil(chunks.length / 3))))
      : chunks;
    emitted = shown.join("");
    push({ type: "text-start", id: "text-0" });
    for (const delta of shown) {
      push({ type: "text-delta", id: "text-0", delta }, delay);
      afterDelta();
    }
    push({ type: "text-end", id: "text-0" });
  }
  if (plan.failAfterText) {
    push({ type: "error", error: failAfterTextError(modelId) }, delay);
    const usage = makeUsage(outputTokens({ ...plan, toolCalls: [] }, emitted));
    push({ type: "finish", usage, finishReason: { unified: "error", raw: "error" } });
    return steps;
  }

  for (const call of plan.toolCalls) {
    push({ type: "tool-input-start", id: call.toolCallId, toolName: call.toolName }, delay);
    for (const delta of chunkText(call.input, rng, 12, 36)) {
      push({ type: "tool-input-delta", id: call.toolCallId, delta }, delay);
      afterDelta();
    }
    push({ type: "tool-input-end", id: call.toolCallId });
    push({ type: "tool-call", ...call });
  }
  afterDelta();
  push({
    type: "finish",
    usage: makeUsage(outputTokens(plan, plan.text)),
    finishReason: plan.finishReason,
  });
  return steps;
}

class OfflineLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = OFFLINE_PROVIDER;
  readonly modelId: string;
  // It only describes files by name, type and size, so a URL is taken as it is (never fetched).
  readonly supportedUrls: Record<string, RegExp[]> = {
    "image/*": [/^https?:\/\//],
    "application/pdf": [/^https?:\/\//],
  };
  private readonly settings: PlanSettings;

  constructor(options: OfflineModelOptions) {
    this.modelId = options.modelId ?? OFFLINE_MODEL_ID;
    this.settings = {
      modelId: this.modelId,
      chunkDelayMs: Math.max(0, options.chunkDelayMs ?? 15),
      firstTokenDelayMs: options.firstTokenDelayMs,
      retryAfterMs: Math.max(0, options.retryAfterMs ?? 250),
    };
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const signal = options.abortSignal;
    if (signal?.aborted) throw createAbortError(signal);
    const plan = buildPlan(options, this.settings);
    await sleep(plan.firstTokenDelayMs, signal);
    if (plan.failure) throw plan.failure;
    if (plan.hang) await waitForAbort(signal);
    const deltaCount = Math.ceil((plan.text.length + (plan.reasoning?.length ?? 0)) / 54);
    await sleep(deltaCount * plan.chunkDelayMs, signal);
    if (plan.failAfterText) throw failAfterTextError(this.modelId);

    const content: LanguageModelV4Content[] = [];
    if (plan.reasoning) content.push({ type: "reasoning", text: plan.reasoning });
    if (plan.text.length > 0) content.push({ type: "text", text: plan.text });
    for (const call of plan.toolCalls) content.push({ type: "tool-call", ...call });
    return {
      content,
      finishReason: plan.finishReason,
      usage: makeUsage(outputTokens(plan, plan.text)),
      warnings: [],
      response: { id: plan.responseId, modelId: this.modelId, timestamp: new Date() },
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const signal = options.abortSignal;
    if (signal?.aborted) throw createAbortError(signal);
    const plan = buildPlan(options, this.settings);
    if (plan.failure) {
      await sleep(plan.firstTokenDelayMs, signal);
      throw plan.failure;
    }
    return { stream: createTimedStream(streamSteps(plan, this.modelId), signal) };
  }
}

/** Creates the offline model. Use it like any provider model: `streamText({ model: createOfflineModel(), … })`. */
export function createOfflineModel(options: OfflineModelOptions = {}): LanguageModelV4 {
  return new OfflineLanguageModel(options);
}
