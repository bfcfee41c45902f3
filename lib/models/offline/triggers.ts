/**
 * The offline model's trigger table (data for docs/offline-model.md, which a test compares, and
 * for the chat's "See all triggers" dialog) and the parser that finds bracketed triggers such as
 * `[long]` or `[tool:search:{"q":"x"}]` in a user message.
 */

/** A trigger as the member types it (placeholders in CAPS) and what it does, in one sentence. */
export type OfflineTrigger = { trigger: string; effect: string };

const TABLE: ReadonlyArray<[string, string]> = [
  ["[long]", "Gives a long answer (about 3–4k characters, several sections)."],
  ["[slow]", "Streams 10× slower than usual."],
  ["[slow:MS]", "Waits MS milliseconds between streamed chunks."],
  ["[fail]", "Fails before emitting anything, with a retryable 503-style API error."],
  ["[fail:N]", "The first N calls with this exact prompt fail before emitting anything."],
  ["[fail-after-text]", "Streams some text, then the stream errors."],
  ["[tool:NAME]", "Calls tool NAME (if offered) with the smallest arguments its schema accepts."],
  ["[tool:NAME:JSON]", "Calls tool NAME with exactly the given JSON arguments (unvalidated)."],
  ["[reason]", "Emits a reasoning part before the answer."],
  ["[hang]", "Emits the first chunk, then never finishes until the request is aborted."],
  ["[echo]", "Answers with exactly your message, minus the triggers."],
  ["[words:N]", "Answers with exactly N words."],
  ["[slow-compaction:MS]", "A background task reading this message takes MS ms more."],
];

export const OFFLINE_TRIGGERS: ReadonlyArray<OfflineTrigger> = Object.freeze(
  TABLE.map(([trigger, effect]) => ({ trigger, effect })),
);

/** A tool trigger: the name, and the raw JSON text of `[tool:NAME:JSON]` if given. */
export type ToolTrigger = { name: string; argsJson: string | undefined };

export type SlowSetting = { kind: "factor"; factor: number } | { kind: "fixed"; ms: number };

export interface ParsedTriggers {
  /** The message with all trigger tokens removed (and trimmed). */
  cleanText: string;
  /** The trigger tokens as they appeared, in order. */
  tokens: string[];
  long: boolean;
  slow: SlowSetting | undefined;
  /** `"always"` for `[fail]`, a count for `[fail:N]`. */
  fail: "always" | number | undefined;
  failAfterText: boolean;
  tools: ToolTrigger[];
  reason: boolean;
  hang: boolean;
  echo: boolean;
  words: number | undefined;
  /** `[slow-compaction:MS]`: how much longer a background task reading this message takes. */
  taskDelayMs: number;
}

const MAX_WORDS = 20_000;
const MAX_SLOW_MS = 60_000;

const SIMPLE_TRIGGER =
  /\[(long|slow|slow:(\d{1,7})|fail-after-text|fail|fail:(\d{1,6})|reason|hang|echo|words:(\d{1,7})|slow-compaction:(\d{1,6}))\]/iy;
const TOOL_NAME = /[A-Za-z0-9_.-]+/y;

type Span = { start: number; end: number };

/** Scans a JSON object/array starting at `start`; returns the index just past it, or -1. */
function scanBalancedJson(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Tries to read `[tool:NAME]` or `[tool:NAME:JSON]` at `start`. */
function readToolTrigger(text: string, start: number): { tool: ToolTrigger; end: number } | null {
  if (text.slice(start, start + 6).toLowerCase() !== "[tool:") return null;
  TOOL_NAME.lastIndex = start + 6;
  const nameMatch = TOOL_NAME.exec(text);
  if (!nameMatch) return null;
  const name = nameMatch[0];
  let i = start + 6 + name.length;
  if (text[i] === "]") return { tool: { name, argsJson: undefined }, end: i + 1 };
  if (text[i] !== ":") return null;
  i++;
  while (text[i] === " ") i++;
  let jsonEnd: number;
  if (text[i] === "{" || text[i] === "[") {
    jsonEnd = scanBalancedJson(text, i);
    if (jsonEnd < 0) return null;
  } else {
    jsonEnd = text.indexOf("]", i);
    if (jsonEnd < 0) return null;
  }
  const argsJson = text.slice(i, jsonEnd).trim();
  let close = jsonEnd;
  while (text[close] === " ") close++;
  if (text[close] !== "]") return null;
  return { tool: { name, argsJson: argsJson.length > 0 ? argsJson : undefined }, end: close + 1 };
}

/** Removes the spans from the text, swallowing one neighbouring space so words don't glue/double. */
function removeSpans(text: string, spans: Span[]): string {
  let out = "";
  let cursor = 0;
  for (const span of spans) {
    let { start, end } = span;
    const before = text[start - 1];
    const after = text[end];
    if (after === " " && (before === undefined || /\s/.test(before))) end++;
    else if (before === " " && (after === undefined || /\s/.test(after))) start--;
    out += text.slice(cursor, Math.max(cursor, start));
    cursor = Math.max(cursor, end);
  }
  return (out + text.slice(cursor)).trim();
}

/** Parses every trigger in a user message. Unknown bracketed text (e.g. `[1]`, links) is kept. */
export function parseTriggers(text: string): ParsedTriggers {
  const parsed: ParsedTriggers = {
    cleanText: text.trim(),
    tokens: [],
    long: false,
    slow: undefined,
    fail: undefined,
    failAfterText: false,
    tools: [],
    reason: false,
    hang: false,
    echo: false,
    words: undefined,
    taskDelayMs: 0,
  };
  const spans: Span[] = [];
  let i = text.indexOf("[");
  while (i >= 0) {
    const tool = readToolTrigger(text, i);
    let end = -1;
    if (tool) {
      parsed.tools.push(tool.tool);
      end = tool.end;
    } else {
      SIMPLE_TRIGGER.lastIndex = i;
      const match = SIMPLE_TRIGGER.exec(text);
      if (match) {
        applySimpleTrigger(parsed, match);
        end = i + match[0].length;
      }
    }
    if (end > i) {
      spans.push({ start: i, end });
      parsed.tokens.push(text.slice(i, end));
      i = text.indexOf("[", end);
    } else {
      i = text.indexOf("[", i + 1);
    }
  }
  if (spans.length > 0) parsed.cleanText = removeSpans(text, spans);
  return parsed;
}

function applySimpleTrigger(parsed: ParsedTriggers, match: RegExpExecArray): void {
  const keyword = (match[1] ?? "").toLowerCase();
  const [, , slowMs, failCount, words, compactionMs] = match;
  if (keyword === "long") parsed.long = true;
  else if (keyword === "slow") parsed.slow = { kind: "factor", factor: 10 };
  else if (slowMs !== undefined) {
    parsed.slow = { kind: "fixed", ms: Math.min(Number(slowMs), MAX_SLOW_MS) };
  } else if (keyword === "fail-after-text") parsed.failAfterText = true;
  else if (keyword === "fail") parsed.fail = "always";
  else if (failCount !== undefined) parsed.fail = Number(failCount);
  else if (keyword === "reason") parsed.reason = true;
  else if (keyword === "hang") parsed.hang = true;
  else if (keyword === "echo") parsed.echo = true;
  else if (words !== undefined) parsed.words = Math.min(Number(words), MAX_WORDS);
  else if (compactionMs !== undefined) {
    parsed.taskDelayMs = Math.max(parsed.taskDelayMs, Math.min(Number(compactionMs), MAX_SLOW_MS));
  }
}

/** The text with every trigger removed, line by line (a line keeps its indentation). */
export function stripTriggers(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      if (!line.includes("[")) return line;
      const indent = /^\s*/u.exec(line)?.[0] ?? "";
      return indent + parseTriggers(line).cleanText;
    })
    .join("\n");
}
