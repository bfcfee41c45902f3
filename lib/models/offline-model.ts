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
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { buildPlan, type OfflinePlan, type PlanSettings } from "./offline/plan";
import { createRng } from "./offline/random";
import {
  chunkText,
  createAbortError,
  createTimedStream,
  sleep,
  type TimedStep,
} from "./offline/timing";
import { usageOf } from "./offline/tokens";

export { documentedRequests, registerOfflineAnswers } from "./offline/answers";
export { resetPlanState as resetOfflineModelState } from "./offline/plan";
export { OFFLINE_TRIGGERS, parseTriggers as parseOfflineTriggers } from "./offline/triggers";

export type OfflineModelOptions = Partial<PlanSettings>;

function streamSteps(plan: OfflinePlan, modelId: string): TimedStep[] {
  const rng = createRng(plan.seed ^ 0x9e3779b9);
  const delay = plan.chunkDelayMs;
  const steps: TimedStep[] = [];
  const push = (part: LanguageModelV4StreamPart, delayMs = 0) => steps.push({ part, delayMs });
  const pushDeltas = (kind: "reasoning" | "text", deltas: string[]) => {
    const id = `${kind}-0`;
    push({ type: `${kind}-start`, id });
    for (const delta of deltas) push({ type: `${kind}-delta`, id, delta }, delay);
    push({ type: `${kind}-end`, id });
  };

  push({ type: "stream-start", warnings: [] });
  push(
    { type: "response-metadata", id: plan.responseId, modelId, timestamp: new Date() },
    plan.firstTokenDelayMs,
  );
  if (plan.reasoning) pushDeltas("reasoning", chunkText(plan.reasoning, rng));
  const chunks = chunkText(plan.text, rng);
  // `[fail-after-text]` shows the first third of the answer (at most three deltas), then fails.
  const shown = plan.failAfterText
    ? chunks.slice(0, Math.min(3, Math.ceil(chunks.length / 3)))
    : chunks;
  if (shown.length > 0) pushDeltas("text", shown);
  if (plan.failAfterText) {
    push({ type: "error", error: plan.failAfterText }, delay);
    const usage = usageOf({ ...plan, text: shown.join(""), toolCalls: [] });
    push({ type: "finish", usage, finishReason: { unified: "error", raw: "error" } });
  } else {
    for (const call of plan.toolCalls) {
      push({ type: "tool-input-start", id: call.toolCallId, toolName: call.toolName }, delay);
      for (const delta of chunkText(call.input, rng, 12, 36))
        push({ type: "tool-input-delta", id: call.toolCallId, delta }, delay);
      push({ type: "tool-input-end", id: call.toolCallId });
      push({ type: "tool-call", ...call });
    }
    push({ type: "finish", usage: usageOf(plan), finishReason: plan.finishReason });
  }
  if (plan.hang) {
    // `[hang]`: whatever follows the first delta (or the finish, without one) waits for the abort.
    const first = steps.findIndex((step) => step.part.type.endsWith("-delta"));
    const next = first < 0 ? steps.at(-1) : steps[first + 1];
    if (next) next.delayMs = Number.POSITIVE_INFINITY;
  }
  return steps;
}

class OfflineLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = "offline";
  readonly modelId: string;
  // It only describes files by name, type and size, so a URL is taken as it is (never fetched).
  readonly supportedUrls: Record<string, RegExp[]> = {
    "image/*": [/^https?:\/\//],
    "application/pdf": [/^https?:\/\//],
  };
  private readonly settings: PlanSettings;

  constructor(options: OfflineModelOptions) {
    this.modelId = options.modelId ?? "offline-1";
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
    // As long as the stream would take: one chunk delay per ~54 characters.
    const deltas = Math.ceil((plan.text.length + (plan.reasoning?.length ?? 0)) / 54);
    await sleep(plan.hang ? Number.POSITIVE_INFINITY : deltas * plan.chunkDelayMs, signal);
    if (plan.failAfterText) throw plan.failAfterText;

    const content: LanguageModelV4Content[] = [];
    if (plan.reasoning) content.push({ type: "reasoning", text: plan.reasoning });
    if (plan.text.length > 0) content.push({ type: "text", text: plan.text });
    for (const call of plan.toolCalls) content.push({ type: "tool-call", ...call });
    return {
      content,
      finishReason: plan.finishReason,
      usage: usageOf(plan),
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
