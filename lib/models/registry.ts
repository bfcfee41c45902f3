// Which model serves a turn. No configuration: the offline model. OPENAI_API_KEY (with optional
// OPENAI_BASE_URL for any OpenAI-compatible server) switches to @ai-sdk/openai, with a model id
// per reasoning profile and an optional fallback model. The catalogue (./catalogue.ts) says which
// API each model speaks and whether it reasons; Responses API calls are not stored at OpenAI
// unless OPENAI_STORE=true. Every model is wrapped for retries, fallback and timeouts
// (resilient-model.ts).
import type { OpenAIProvider } from "@ai-sdk/openai";
import type { LanguageModelV4, LanguageModelV4Middleware } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import type { ReasoningProfile } from "@/lib/config";
import { type ModelCapabilities, modelCapabilities, type ReasoningEffort } from "./catalogue";
import { loadModelConfig, type ModelConfig } from "./model-config";
import { createOfflineModel, documentedRequests, OFFLINE_TRIGGERS } from "./offline-model";
import { type Attempt, createResilientModel, type ResilienceOptions } from "./resilient-model";
import { structuredOutputMiddleware } from "./structured-output";

export type ResolvedModel = {
  model: LanguageModelV4;
  modelId: string;
  provider: string;
  /** What the catalogue says of the primary model (unknown models are flagged there). */
  capabilities: ModelCapabilities;
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
const EFFORT_ENV = {
  fast: "OPENAI_REASONING_EFFORT_FAST",
  balanced: "OPENAI_REASONING_EFFORT_BALANCED",
  deep: "OPENAI_REASONING_EFFORT_DEEP",
} as const;
const PROFILE_EFFORT: Record<ReasoningProfile, ReasoningEffort> = {
  fast: "low",
  balanced: "medium",
  deep: "high",
};

/**
 * The API a model is called through. A compatible server (OPENAI_BASE_URL) speaks Chat
 * Completions whatever the built-in entry says, unless the configured catalogue says otherwise.
 */
export function apiOf(
  capabilities: ModelCapabilities,
  settings: ModelConfig,
): "responses" | "chat" {
  if (settings.OPENAI_BASE_URL && capabilities.source !== "catalogue") return "chat";
  return capabilities.api;
}

/** The effort a profile asks of a model that reasons: its own setting, else the profile's. */
export function reasoningEffortOf(
  capabilities: ModelCapabilities,
  profile: ReasoningProfile,
  settings: ModelConfig,
): ReasoningEffort | null {
  const efforts = capabilities.reasoning?.efforts;
  if (!efforts) return null;
  const wanted = settings[EFFORT_ENV[profile]] ?? PROFILE_EFFORT[profile];
  if (efforts.includes(wanted)) return wanted;
  // The nearest effort the model offers at or below the one asked for, else its lowest.
  const order: ReasoningEffort[] = ["minimal", "low", "medium", "high"];
  const below = order.slice(0, order.indexOf(wanted) + 1).reverse();
  return below.find((effort) => efforts.includes(effort)) ?? (efforts[0] as ReasoningEffort);
}

/** The provider options every call to the model carries: storage, reasoning effort, summaries. */
export function providerDefaults(
  capabilities: ModelCapabilities,
  profile: ReasoningProfile,
  settings: ModelConfig,
): Record<string, string | boolean> {
  const options: Record<string, string | boolean> = {};
  const api = apiOf(capabilities, settings);
  if (api === "responses") options.store = settings.OPENAI_STORE === "true";
  const effort = reasoningEffortOf(capabilities, profile, settings);
  if (effort) {
    options.reasoningEffort = effort;
    if (api === "responses" && capabilities.reasoning?.summaries) options.reasoningSummary = "auto";
  }
  return options;
}

async function openAIProvider(settings: ModelConfig): Promise<OpenAIProvider> {
  const { createOpenAI } = await import("@ai-sdk/openai");
  return createOpenAI({ apiKey: settings.OPENAI_API_KEY, baseURL: settings.OPENAI_BASE_URL });
}

/**
 * A configured model as the app calls it (its API, storage, reasoning and structured-output
 * mode from the catalogue) but bare: no retries, fallback or timeouts. The model check's.
 */
export async function bareModel(id: string, profile: ReasoningProfile): Promise<LanguageModelV4> {
  const settings = loadModelConfig();
  return openAIModel(await openAIProvider(settings), id, profile, settings);
}

function openAIModel(
  openai: OpenAIProvider,
  id: string,
  profile: ReasoningProfile,
  settings: ModelConfig,
): LanguageModelV4 {
  const capabilities = modelCapabilities(id);
  const model =
    apiOf(capabilities, settings) === "responses" ? openai.responses(id) : openai.chat(id);
  const defaults = providerDefaults(capabilities, profile, settings);
  const middleware: LanguageModelV4Middleware[] = [];
  if (Object.keys(defaults).length > 0) {
    // A call's own openai options win over the defaults.
    middleware.push({
      specificationVersion: "v4",
      transformParams: async ({ params }) => ({
        ...params,
        providerOptions: {
          ...params.providerOptions,
          openai: { ...defaults, ...params.providerOptions?.openai },
        },
      }),
    });
  }
  const structured = structuredOutputMiddleware(capabilities.structuredOutput);
  if (structured) middleware.push(structured);
  return middleware.length === 0 ? model : wrapLanguageModel({ model, middleware });
}

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
    const openai = await openAIProvider(settings);
    // @ai-sdk/openai's chat model asks for usage on every stream (stream_options.include_usage).
    const make = (id: string) => openAIModel(openai, id, profile, settings);
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
  return {
    model,
    modelId: primary.modelId,
    provider,
    capabilities: modelCapabilities(primary.modelId),
    attempts,
  };
}
