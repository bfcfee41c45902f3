// Prices and context windows per model. Prices are USD per million tokens, as published by the
// providers; a model missing here has an unknown cost (null) and a context
// window of 200,000 tokens.
import type { TokenUsage } from "./usage";

export type ModelInfo = {
  inputPerMillion: number;
  outputPerMillion: number;
  contextWindow: number;
};

export const MODELS: Record<string, ModelInfo> = {
  "offline-1": { inputPerMillion: 0, outputPerMillion: 0, contextWindow: 200_000 },
  "gpt-4.1": { inputPerMillion: 2, outputPerMillion: 8, contextWindow: 1_047_576 },
  "gpt-4.1-mini": { inputPerMillion: 0.4, outputPerMillion: 1.6, contextWindow: 1_047_576 },
  "gpt-4.1-nano": { inputPerMillion: 0.1, outputPerMillion: 0.4, contextWindow: 1_047_576 },
  "gpt-4o": { inputPerMillion: 2.5, outputPerMillion: 10, contextWindow: 128_000 },
  "gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6, contextWindow: 128_000 },
  o3: { inputPerMillion: 2, outputPerMillion: 8, contextWindow: 200_000 },
  "o4-mini": { inputPerMillion: 1.1, outputPerMillion: 4.4, contextWindow: 200_000 },
};

export const DEFAULT_CONTEXT_WINDOW = 200_000;

export function contextWindow(modelId: string): number {
  return MODELS[modelId]?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
}

/** USD for the tokens, or null when the usage or the model's price is unknown. */
export function costUsd(modelId: string, usage: TokenUsage | null): number | null {
  const info = MODELS[modelId];
  if (!info || !usage) return null;
  const cost =
    (usage.inputTokens * info.inputPerMillion + usage.outputTokens * info.outputPerMillion) /
    1_000_000;
  return Math.round(cost * 1e8) / 1e8;
}
