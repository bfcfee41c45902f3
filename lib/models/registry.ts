// Which model serves a turn. No configuration: the offline model. OPENAI_API_KEY (with optional
// OPENAI_BASE_URL for any OpenAI-compatible server) switches to @ai-sdk/openai, with a model id
// per reasoning profile. The models issue adds fallbacks, pricing and context windows here.
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ReasoningProfile } from "@/lib/config";
import { createOfflineModel } from "./offline-model";

export type ResolvedModel = { model: LanguageModelV4; modelId: string; provider: string };

const PROFILE_ENV: Record<ReasoningProfile, string> = {
  fast: "OPENAI_MODEL_FAST",
  balanced: "OPENAI_MODEL_BALANCED",
  deep: "OPENAI_MODEL_DEEP",
};
const PROFILE_DEFAULT: Record<ReasoningProfile, string> = {
  fast: "gpt-4.1-mini",
  balanced: "gpt-4.1",
  deep: "o4-mini",
};

export function usingOfflineModel(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.OPENAI_API_KEY?.trim();
}

export async function resolveModel(profile: ReasoningProfile): Promise<ResolvedModel> {
  if (usingOfflineModel()) {
    const chunkDelayMs = process.env.OFFLINE_MODEL_CHUNK_DELAY_MS;
    const model = createOfflineModel(
      chunkDelayMs === undefined ? {} : { chunkDelayMs: Number(chunkDelayMs) },
    );
    return { model, modelId: model.modelId, provider: "offline" };
  }
  const { createOpenAI } = await import("@ai-sdk/openai");
  const provider = createOpenAI({
    apiKey: process.env.OPENAI_API_KEY,
    baseURL: process.env.OPENAI_BASE_URL || undefined,
  });
  const modelId =
    process.env[PROFILE_ENV[profile]] || process.env.OPENAI_MODEL || PROFILE_DEFAULT[profile];
  // Compatible servers (Ollama, vLLM, llama.cpp) speak chat completions, not the responses API.
  const model = process.env.OPENAI_BASE_URL ? provider.chat(modelId) : provider(modelId);
  return { model, modelId, provider: "openai" };
}
