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

export type SlowSetting = { kind: "factor"; factor: number } | { kind: "fixed"; ms: number };

const MAX_WORDS = 20_000;
const MAX_MS = 60_000;

// A trigger without a number, one with a number, or the start of a tool trigger (whose JSON
// arguments, if any, run to the `]` that closes them).
const TRIGGER =
  /\[(?:(long|slow|fail-after-text|fail|reason|hang|echo)\]|(slow|fail|words|slow-compaction):(\d{1,7})\]|tool:([\w.-]+)(\]|:))/iy;

/** Where `[tool:NAME:JSON]`'s arguments end: after a whole JSON value, else at the first `]`. */
function argumentsEnd(text: string, from: number): number {
  const first = text.indexOf("]", from);
  for (let end = first; end >= 0; end = text.indexOf("]", end + 1)) {
    try {
      JSON.parse(text.slice(from, end));
      return end;
    } catch {
      // Not yet a whole value (a `]` inside it): try the next one.
    }
  }
  return first;
}

/** Parses every trigger in a user message. Unknown bracketed text (e.g. `[1]`, links) is kept. */
export function parseTriggers(text: string) {
  const parsed = {
    /** The message with all trigger tokens removed (and trimmed). */
    cleanText: "",
    long: false,
    slow: undefined as SlowSetting | undefined,
    /** `"always"` for `[fail]`, a count for `[fail:N]`. */
    fail: undefined as "always" | number | undefined,
    failAfterText: false,
    /** The raw JSON text of `[tool:NAME:JSON]`, unvalidated. */
    tools: [] as Array<{ name: string; argsJson: string | undefined }>,
    reason: false,
    hang: false,
    echo: false,
    words: undefined as number | undefined,
    /** `[slow-compaction:MS]`: how much longer a background task reading this message takes. */
    taskDelayMs: 0,
  };
  let clean = "";
  let cursor = 0;
  for (let start = text.indexOf("["); start >= 0; start = text.indexOf("[", start + 1)) {
    TRIGGER.lastIndex = start;
    const match = TRIGGER.exec(text);
    if (!match) continue;
    const [token, flag, key, value, tool, afterName] = match;
    let end = start + token.length;
    if (tool !== undefined) {
      const close = afterName === ":" ? argumentsEnd(text, end) : end - 1;
      if (close < 0) continue;
      parsed.tools.push({ name: tool, argsJson: text.slice(end, close).trim() || undefined });
      end = close + 1;
    } else {
      setTrigger(parsed, (flag ?? key ?? "").toLowerCase(), value);
    }
    // One neighbouring space goes with the trigger, so the words around it neither glue nor double.
    let cut = start;
    if (text[end] === " " && (start === 0 || /\s/.test(text.charAt(start - 1)))) end++;
    else if (text[start - 1] === " " && (end === text.length || /\s/.test(text.charAt(end)))) cut--;
    clean += text.slice(cursor, cut);
    cursor = end;
    start = end - 1;
  }
  parsed.cleanText = (clean + text.slice(cursor)).trim();
  return parsed;
}

function setTrigger(
  parsed: ReturnType<typeof parseTriggers>,
  keyword: string,
  value: string | undefined,
): void {
  const n = Math.min(Number(value), keyword === "words" ? MAX_WORDS : MAX_MS);
  if (keyword === "slow")
    parsed.slow = value ? { kind: "fixed", ms: n } : { kind: "factor", factor: 10 };
  else if (keyword === "fail") parsed.fail = value ? Number(value) : "always";
  else if (keyword === "fail-after-text") parsed.failAfterText = true;
  else if (keyword === "words") parsed.words = n;
  else if (keyword === "slow-compaction") parsed.taskDelayMs = Math.max(parsed.taskDelayMs, n);
  else if (keyword === "long" || keyword === "reason" || keyword === "hang" || keyword === "echo")
    parsed[keyword] = true;
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
