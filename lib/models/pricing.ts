// Prices, context windows and which files each model takes. Prices are USD per million tokens,
// as published by the providers; a model missing here has an unknown cost (null), a context
// window of 200,000 tokens and takes no files (they stay readable through read_attachment).
import type { TokenUsage } from "./usage";

export type ModelInfo = {
  inputPerMillion: number;
  outputPerMillion: number;
  contextWindow: number;
  /** The attachments it takes as input: images (PNG, JPEG, GIF, WebP) and PDFs. */
  accepts: { images: boolean; pdf: boolean };
};

const BOTH = { images: true, pdf: true };

export const MODELS: Record<string, ModelInfo> = {
  "offline-1": { inputPerMillion: 0, outputPerMillion: 0, contextWindow: 200_000, accepts: BOTH },
  "gpt-4.1": { inputPerMillion: 2, outputPerMillion: 8, contextWindow: 1_047_576, accepts: BOTH },
  "gpt-4.1-mini": {
    inputPerMillion: 0.4,
    outputPerMillion: 1.6,
    contextWindow: 1_047_576,
    accepts: BOTH,
  },
  "gpt-4.1-nano": {
    inputPerMillion: 0.1,
    outputPerMillion: 0.4,
    contextWindow: 1_047_576,
    accepts: BOTH,
  },
  "gpt-4o": { inputPerMillion: 2.5, outputPerMillion: 10, contextWindow: 128_000, accepts: BOTH },
  "gpt-4o-mini": {
    inputPerMillion: 0.15,
    outputPerMillion: 0.6,
    contextWindow: 128_000,
    accepts: BOTH,
  },
  o3: { inputPerMillion: 2, outputPerMillion: 8, contextWindow: 200_000, accepts: BOTH },
  "o4-mini": { inputPerMillion: 1.1, outputPerMillion: 4.4, contextWindow: 200_000, accepts: BOTH },
};

export const DEFAULT_CONTEXT_WINDOW = 200_000;

export function contextWindow(modelId: string): number {
  return MODELS[modelId]?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
}

/** Whether the model takes a file of this type as input (else it is only listed and readable). */
export function acceptsFile(modelId: string, mediaType: string): boolean {
  const accepts = MODELS[modelId]?.accepts;
  if (!accepts) return false;
  if (mediaType === "application/pdf") return accepts.pdf;
  return mediaType.startsWith("image/") && accepts.images;
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
