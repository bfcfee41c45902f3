// The model's context window and how it is spent: the window of the turn's model (or the
// configured override), the tokens kept back for the answer, and token counting with one
// tokenizer plus a margin for models whose tokenizer counts differently.
import { countTokens } from "gpt-tokenizer";
import { LRUCache } from "lru-cache";
import type { ToolPolicy } from "@/lib/agents/authority";
import { config } from "@/lib/config";
import { contextWindow, largestContextWindow } from "@/lib/models/catalogue";
import type { ExecutionPlan, MemoryBlockEntry, WorkstreamState } from "@/lib/state/schema";
import type { WorkstreamMessage } from "@/lib/turns/messages";

/** What a message costs beyond its text in a chat request (role and separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

export type HistoryMessage = { message: WorkstreamMessage; tokens: number };

/** What the workstream keeps beyond its messages, as the turn's opening statement read it. */
export type KeptContext = {
  state: WorkstreamState;
  plan: ExecutionPlan | null;
  memorySummary: string | null;
  memoryEntries: MemoryBlockEntry[];
  /** The organization's tool policy by tool (no entry: allowed), for the turn's tool calls. */
  toolPolicy?: ToolPolicy;
};

export function windowOf(modelId: string): number {
  return config.context.windowOverride ?? contextWindow(modelId);
}

/** Tokens kept back for the answer: the configured amount, at most a quarter of the window. */
export function reservedOutputOf(window: number): number {
  return Math.min(config.context.reservedOutputTokens, Math.floor(window / 4));
}

// A workstream's state items, plan steps, notes and rendered sections are mostly the same from
// one turn to the next, so their counts are remembered rather than tokenized again every turn.
// Bounded by the characters it holds (about 8 MB at most), not only by entries.
const counted = new LRUCache<string, number>({
  max: 20_000,
  maxSize: 4_000_000,
  sizeCalculation: (_tokens, text) => Math.max(1, text.length),
});

/** Tokens of `text` as the budget counts them: the tokenizer's count plus the margin. */
export function budgetTokens(text: string): number {
  if (!text) return 0;
  let tokens = counted.get(text);
  if (tokens === undefined) {
    tokens = countTokens(text);
    counted.set(text, tokens);
  }
  return Math.ceil(tokens * (1 + config.context.tokenizerMargin));
}

/** Stored token counts (messages.token_count) with the margin and the per-message overhead. */
export function messageBudgetTokens(tokens: number): number {
  return Math.ceil(tokens * (1 + config.context.tokenizerMargin)) + MESSAGE_OVERHEAD_TOKENS;
}

/**
 * The most history (in stored token counts) any turn could use: the largest window of any
 * model less its reserve. The opening statement reads no more than this; the builder then trims
 * to the turn's own model.
 */
export function historyReadCap(): number {
  const window = config.context.windowOverride ?? largestContextWindow();
  return Math.floor((window - reservedOutputOf(window)) / (1 + config.context.tokenizerMargin));
}

/**
 * The newest messages whose tokens (with the per-message overhead) fit `cap`, at most `limit`, oldest
 * first; the newest always goes. The history a turn reads is trimmed by this one rule.
 */
export function newestWithin<T extends { tokens: number }>(
  messages: readonly T[],
  cap: number,
  limit: number,
): readonly T[] {
  let used = 0;
  let from = messages.length;
  while (from > 0 && messages.length - from < limit) {
    const message = messages[from - 1] as T;
    used += message.tokens + MESSAGE_OVERHEAD_TOKENS;
    if (from < messages.length && used > cap) break;
    from -= 1;
  }
  return messages.slice(from);
}

// When a workstream's uncompacted history has grown too large for its window (lib/compaction).

/** The history's size as the context builder counts it. */
export function historyBudget(entries: ReadonlyArray<{ tokens: number }>): number {
  return entries.reduce((sum, entry) => sum + messageBudgetTokens(entry.tokens), 0);
}

/**
 * Whether the uncompacted history has passed the threshold share of the window. `leftOut`
 * counts messages the turn's history read did not even load (they did not fit the largest
 * window), which means it has.
 */
export function compactionDue({
  historyTokens,
  leftOut = 0,
  window,
}: {
  historyTokens: number;
  leftOut?: number;
  window: number;
}): boolean {
  return leftOut > 0 || historyTokens > window * config.compaction.threshold;
}
