// Token usage as a turn records it. A provider that reports no counts (a compatible server that
// ignores stream_options, a stream cut by a stop) gives unknown usage: null, never zero, so that
// nothing unknown is shown or summed as free.
import type { LanguageModelUsage } from "ai";

export type TokenUsage = {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
};

/** The counts the provider reported, or null when it reported no input or output count. */
export function tokenUsage(usage: LanguageModelUsage | undefined): TokenUsage | null {
  if (usage?.inputTokens === undefined || usage.outputTokens === undefined) return null;
  const reasoning = usage.outputTokenDetails?.reasoningTokens;
  const cached = usage.inputTokenDetails?.cacheReadTokens;
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
    ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
  };
}

/** The sum over model calls; unknown as soon as one call's usage is unknown (or none was made). */
export function sumUsage(usages: Array<TokenUsage | null>): TokenUsage | null {
  if (usages.length === 0 || usages.some((usage) => usage === null)) return null;
  const known = usages as TokenUsage[];
  const total = (pick: (usage: TokenUsage) => number | undefined) =>
    known.reduce((sum, usage) => sum + (pick(usage) ?? 0), 0);
  const sum: TokenUsage = {
    inputTokens: total((usage) => usage.inputTokens),
    outputTokens: total((usage) => usage.outputTokens),
  };
  if (known.some((usage) => usage.reasoningTokens !== undefined)) {
    sum.reasoningTokens = total((usage) => usage.reasoningTokens);
  }
  if (known.some((usage) => usage.cachedInputTokens !== undefined)) {
    sum.cachedInputTokens = total((usage) => usage.cachedInputTokens);
  }
  return sum;
}
