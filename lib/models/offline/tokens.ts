/**
 * Token accounting for the offline model with gpt-tokenizer (o200k_base): input tokens from the
 * prompt (per message, cached, plus tool and response-format schemas), output tokens from the
 * generated text and tool calls, and truncation to `maxOutputTokens`.
 */
import type { LanguageModelV4Usage } from "@ai-sdk/provider";
import { countTokens, decode, encode } from "gpt-tokenizer";
import { LRUCache } from "lru-cache";
import { safeStringify } from "./prompt";
import { hashString } from "./random";

/** Treat special-token text like `<|endoftext|>` in user input as ordinary text. */
const ENCODE_OPTIONS = { disallowedSpecial: new Set<string>() };
/** Roughly what chat formats add per message (role markers, separators). */
const PER_MESSAGE_OVERHEAD = 4;
/** What an attached image/file costs at low detail on hosted models. */
const PER_FILE_TOKENS = 85;

// Counts remembered, least recently used out: a conversation's messages come back every turn.
// Long texts are keyed by hash + length so long histories aren't kept alive by the cache; short
// ones (a history's one-line messages) by themselves: cheap to keep, costly to count.
const SHORT_TEXT = 64;
const longCounts = new LRUCache<string, number>({ max: 512 });
const shortCounts = new LRUCache<string, number>({ max: 4_096 });

/** Exact token count of a string. */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  const short = text.length < SHORT_TEXT;
  const counts = short ? shortCounts : longCounts;
  const key = short ? text : `${hashString(text)}:${text.length}`;
  let count = counts.get(key);
  if (count === undefined) {
    count = countTokens(text, ENCODE_OPTIONS);
    counts.set(key, count);
  }
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

/** The prompt's messages, files and tools, and the structured-output schema if there is one. */
export function countInputTokens(input: {
  messageDigests: readonly string[];
  fileCount: number;
  tools: readonly CountedTool[];
  schema?: unknown;
}): number {
  let total = 3 + (input.schema ? countTextTokens(safeStringify(input.schema)) : 0);
  for (const digest of input.messageDigests)
    total += countTextTokens(digest) + PER_MESSAGE_OVERHEAD;
  for (const tool of input.tools) total += countToolTokens(tool);
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

/** What a call used: its input, and the tokens of its text, reasoning and tool calls. */
export function usageOf(output: {
  inputTokens: number;
  text: string;
  reasoning: string | undefined;
  toolCalls: ReadonlyArray<{ toolName: string; input: string }>;
}): LanguageModelV4Usage {
  let text = countTextTokens(output.text);
  for (const call of output.toolCalls)
    text += countTextTokens(call.toolName) + countTextTokens(call.input);
  const reasoning = countTextTokens(output.reasoning ?? "");
  const input = output.inputTokens;
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: text + reasoning, text, reasoning },
  };
}
