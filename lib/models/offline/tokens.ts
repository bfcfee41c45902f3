/**
 * Token accounting for the offline model with gpt-tokenizer (o200k_base): input tokens from the
 * prompt (per message, cached, plus tool and response-format schemas), output tokens from the
 * generated text, and truncation to `maxOutputTokens`.
 */
import type { LanguageModelV4Usage } from "@ai-sdk/provider";
import { countTokens, decode, encode } from "gpt-tokenizer";
import { safeStringify } from "./prompt";
import { hashString } from "./random";

/** Treat special-token text like `<|endoftext|>` in user input as ordinary text. */
const ENCODE_OPTIONS = { disallowedSpecial: new Set<string>() };
/** Roughly what chat formats add per message (role markers, separators). */
const PER_MESSAGE_OVERHEAD = 4;
/** What an attached image/file costs at low detail on hosted models. */
const PER_FILE_TOKENS = 85;

const CACHE_LIMIT = 512;
const cache = new Map<string, number>();
/** Short texts (a history's one-line messages) keyed by themselves: cheap to keep, costly to count. */
const SHORT_TEXT = 64;
const SHORT_LIMIT = 4_096;
const shortCache = new Map<string, number>();

/** Exact token count of a string (remembered: a conversation's messages come back every turn). */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length < SHORT_TEXT) return remembered(shortCache, text, text, SHORT_LIMIT);
  // Keyed by hash + length so long histories aren't kept alive by the cache.
  return remembered(cache, `${hashString(text)}:${text.length}`, text, CACHE_LIMIT);
}

function remembered(map: Map<string, number>, key: string, text: string, limit: number): number {
  const cached = map.get(key);
  if (cached !== undefined) return cached;
  const count = countTokens(text, ENCODE_OPTIONS);
  if (map.size >= limit) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, count);
  return count;
}

/** A tool as the model receives it: counted as its name, description and parameters in JSON. */
export type CountedTool = { name: string; description?: string; inputSchema: unknown };

// The SDK hands the model the same parameters object for a tool on every call (its schema
// wrapper converts once), so a tool's count is kept with that object, not recomputed per call.
const toolCounts = new WeakMap<object, { name: string; description?: string; tokens: number }>();

export function countToolTokens(tool: CountedTool): number {
  const key =
    typeof tool.inputSchema === "object" && tool.inputSchema !== null ? tool.inputSchema : null;
  const known = key ? toolCounts.get(key) : undefined;
  if (known && known.name === tool.name && known.description === tool.description)
    return known.tokens;
  const tokens = countTextTokens(
    safeStringify({ name: tool.name, description: tool.description, parameters: tool.inputSchema }),
  );
  if (key) toolCounts.set(key, { name: tool.name, description: tool.description, tokens });
  return tokens;
}

export function countInputTokens(input: {
  messageDigests: readonly string[];
  fileCount: number;
  tools: readonly CountedTool[];
  extraTexts: readonly string[];
}): number {
  let total = 3;
  for (const digest of input.messageDigests)
    total += countTextTokens(digest) + PER_MESSAGE_OVERHEAD;
  for (const tool of input.tools) total += countToolTokens(tool);
  for (const extra of input.extraTexts) total += countTextTokens(extra);
  return total + input.fileCount * PER_FILE_TOKENS;
}

/** Cuts text to at most `maxTokens` tokens; returns whether it was cut. */
export function truncateToTokens(
  text: string,
  maxTokens: number,
): { text: string; truncated: boolean } {
  const tokens = encode(text, ENCODE_OPTIONS);
  if (tokens.length <= maxTokens) return { text, truncated: false };
  return { text: decode(tokens.slice(0, Math.max(0, maxTokens))), truncated: true };
}

export function makeUsage(input: {
  inputTokens: number;
  textTokens: number;
  reasoningTokens: number;
}): LanguageModelV4Usage {
  return {
    inputTokens: {
      total: input.inputTokens,
      noCache: input.inputTokens,
      cacheRead: 0,
      cacheWrite: 0,
    },
    outputTokens: {
      total: input.textTokens + input.reasoningTokens,
      text: input.textTokens,
      reasoning: input.reasoningTokens,
    },
  };
}
