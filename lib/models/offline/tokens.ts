/**
 * Token accounting for the offline model with gpt-tokenizer (o200k_base): input tokens from the
 * prompt (per message, cached, plus tool and response-format schemas), output tokens from the
 * generated text, and truncation to `maxOutputTokens`.
 */
import type { LanguageModelV4Usage } from "@ai-sdk/provider";
import { countTokens, decode, encode } from "gpt-tokenizer";
import { hashString } from "./random";

/** Treat special-token text like `<|endoftext|>` in user input as ordinary text. */
const ENCODE_OPTIONS = { disallowedSpecial: new Set<string>() };
/** Roughly what chat formats add per message (role markers, separators). */
const PER_MESSAGE_OVERHEAD = 4;
/** What an attached image/file costs at low detail on hosted models. */
const PER_FILE_TOKENS = 85;

const CACHE_LIMIT = 512;
const cache = new Map<string, number>();

/** Exact token count of a string (cached for long strings such as conversation history). */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length < 64) return countTokens(text, ENCODE_OPTIONS);
  // Keyed by hash + length so long histories aren't kept alive by the cache.
  const key = `${hashString(text)}:${text.length}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const count = countTokens(text, ENCODE_OPTIONS);
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(key, count);
  return count;
}

export function countInputTokens(input: {
  messageDigests: readonly string[];
  fileCount: number;
  extraTexts: readonly string[];
}): number {
  let total = 3;
  for (const digest of input.messageDigests)
    total += countTextTokens(digest) + PER_MESSAGE_OVERHEAD;
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
