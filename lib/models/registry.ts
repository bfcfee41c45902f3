// Which model serves a turn. No configuration: the offline model. OPENAI_API_KEY (with optional
// OPENAI_BASE_URL for any OpenAI-compatible server) switches to @ai-sdk/openai, with a model id
// per reasoning profile and an optional fallback model. Every model is wrapped for retries,
// fallback and timeouts (resilient-model.ts).
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ReasoningProfile } from "@/lib/config";
import { loadModelConfig } from "./model-config";
import { createOfflineModel, documentedRequests, OFFLINE_TRIGGERS } from "./offline-model";
import { type Attempt, createResilientModel, type ResilienceOptions } from "./resilient-model";

export type ResolvedModel = {
  model: LanguageModelV4;
  modelId: string;
  provider: string;
  /** The model ids that served each attempt, in order (filled as the turn runs). */
  attempts: Attempt[];
};

const PROFILE_ENV = {
  fast: "OPENAI_MODEL_FAST",
  balanced: "OPENAI_MODEL_BALANCED",
  deep: "OPENAI_MODEL_DEEP",
} as const;
const PROFILE_DEFAULT: Record<ReasoningProfile, string> = {
  fast: "gpt-4.1-mini",
  balanced: "gpt-4.1",
  deep: "o4-mini",
};

export function usingOfflineModel(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.OPENAI_API_KEY?.trim();
}

/**
 * What the chat's "See all triggers" dialog lists while the offline model answers: its triggers
 * and the demo's plain requests the domains registered; null with a real model.
 */
export function offlineModelTriggers(): Array<{ trigger: string; effect: string }> | null {
  if (!usingOfflineModel()) return null;
  return [...OFFLINE_TRIGGERS, ...documentedRequests()].map(({ trigger, effect }) => ({
    trigger,
    effect,
  }));
}

export async function resolveModel(
  profile: ReasoningProfile,
  { onAttempt, onAttemptStart }: Pick<ResilienceOptions, "onAttempt" | "onAttemptStart"> = {},
): Promise<ResolvedModel> {
  const settings = loadModelConfig();
  let primary: LanguageModelV4;
  let fallback: LanguageModelV4 | undefined;
  let provider = "offline";
  if (usingOfflineModel()) {
    primary = createOfflineModel(
      settings.OFFLINE_MODEL_CHUNK_DELAY_MS === undefined
        ? {}
        : { chunkDelayMs: settings.OFFLINE_MODEL_CHUNK_DELAY_MS },
    );
  } else {
    provider = "openai";
    const { createOpenAI } = await import("@ai-sdk/openai");
    const openai = createOpenAI({
      apiKey: settings.OPENAI_API_KEY,
      baseURL: settings.OPENAI_BASE_URL,
    });
    // Compatible servers (Ollama, vLLM, llama.cpp) speak chat completions, not the responses API.
    // @ai-sdk/openai's chat model asks for usage on every stream (stream_options.include_usage).
    const make = (id: string) => (settings.OPENAI_BASE_URL ? openai.chat(id) : openai(id));
    primary = make(
      settings[PROFILE_ENV[profile]] ?? settings.OPENAI_MODEL ?? PROFILE_DEFAULT[profile],
    );
    if (settings.OPENAI_FALLBACK_MODEL) fallback = make(settings.OPENAI_FALLBACK_MODEL);
  }
  const attempts: Attempt[] = [];
  const model = createResilientModel({
    primary,
    fallback,
    attemptsPerModel: settings.MODEL_ATTEMPTS,
    retryBaseMs: settings.MODEL_RETRY_BASE_MS,
    firstTokenTimeoutMs: settings.MODEL_FIRST_TOKEN_TIMEOUT_MS,
    idleTimeoutMs: settings.MODEL_IDLE_TIMEOUT_MS,
    onAttemptStart,
    onAttempt: (attempt) => {
      attempts.push(attempt);
      onAttempt?.(attempt);
    },
  });
  return { model, modelId: primary.modelId, provider, attempts };
}
