/**
 * Word-level helpers for the offline model: keywords (proper and technical terms first), short
 * titles, identifiers for code samples, a code-language guess and pronoun swapping for restating.
 */

const STOPWORDS = new Set(
  (
    "a an the and or but if then else when while of to in on at by for with without from into onto " +
    "about above below over under again further once here there all any both each few more most " +
    "other some such no nor not only own same so than too very can will just should now is are was " +
    "were be been being have has had having do does did doing i me my myself we our ours you your " +
    "yours he him his she her it its they them their what which who whom this that these those am " +
    "would could might must shall may also how why where please thanks thank hey hello hi want need " +
    "like make get give tell show help let lets use using write explain know think way ways best " +
    "good really something anything thing things one two able sure okay ok yes maybe still there's " +
    "it's i'm i'd i've can't don't doesn't isn't what's how's set setup build create run add fix " +
    "handle change improve find keep start learn work works working go going try look see take put " +
    "call read send new simple quick quickly small little big lot lots much many kind sort stuff " +
    "into via per etc idea ideas option options tip tips step steps guide example examples list " +
    "difference between versus compare better vs"
  ).split(" "),
);

const CODE_WORDS = new Set(
  "function functions script snippet code program class method component query python typescript javascript sql bash shell rust golang js ts css html regex".split(
    " ",
  ),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'+#_./-]*/gu;

interface KeywordOptions {
  /** Put proper nouns and technical terms (S3, Next.js, Postgres) first. Default true. */
  ranked?: boolean;
}

/** Content words of the text, deduplicated (case-insensitive), with their display casing. */
export function extractKeywords(text: string, max = 6, options: KeywordOptions = {}): string[] {
  const seen = new Set<string>();
  const found: Array<{ word: string; strong: boolean }> = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0].replace(/['_./-]+$/u, "");
    const lower = word.toLowerCase();
    if (word.length === 0 || seen.has(lower) || STOPWORDS.has(lower)) continue;
    const technical = /\p{N}|[+#.]|\p{Lu}/u.test(word.slice(1)) || /^\p{Lu}{2,}$/u.test(word);
    if (word.length < 3 && !technical) continue;
    const before = text.slice(0, match.index).trimEnd();
    const sentenceStart = before.length === 0 || /[.?!:\n]$/u.test(before);
    const strong = technical || (/^\p{Lu}/u.test(word) && !sentenceStart);
    seen.add(lower);
    const keepCase = strong || (sentenceStart && /^\p{Lu}\p{Ll}+$/u.test(word) && word.length > 3);
    found.push({ word: keepCase ? word : lower, strong });
  }
  const ordered =
    options.ranked === false
      ? found
      : [...found.filter((k) => k.strong), ...found.filter((k) => !k.strong)];
  return ordered.slice(0, max).map((k) => k.word);
}

/** Keywords without programming-language and "function/script" words (for naming code). */
export function subjectKeywords(text: string, max = 4): string[] {
  return extractKeywords(text, 12, { ranked: false })
    .filter((word) => !CODE_WORDS.has(word.toLowerCase()))
    .slice(0, max);
}

function titleCaseWord(word: string): string {
  return word === word.toLowerCase() ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/** A short Title Case title built from the text's keywords, in their original order. */
export function makeTitle(text: string, maxLength = 60): string {
  const words = extractKeywords(text, 5, { ranked: false }).map(titleCaseWord);
  let title = "";
  for (const word of words) {
    const next = title.length === 0 ? word : `${title} ${word}`;
    if (next.length > maxLength) break;
    title = next;
  }
  return title.length > 0 ? title : "New Conversation";
}

/** Up to `max` words of the text, joined by single spaces. */
export function firstWords(text: string, max: number): string {
  return text.split(/\s+/u).filter(Boolean).slice(0, max).join(" ");
}

const PRONOUNS: Record<string, string> = {
  i: "you",
  me: "you",
  my: "your",
  mine: "yours",
  myself: "yourself",
  we: "you",
  us: "you",
  our: "your",
  ours: "yours",
  "i'm": "you're",
  "i've": "you've",
  "i'd": "you'd",
  am: "are",
};

/** Swaps first-person words for second person ("deploy my app" → "deploy your app"). */
export function swapPronouns(phrase: string): string {
  return phrase.replace(/\b(?:i'm|i've|i'd|i|me|my|mine|myself|we|us|our|ours|am)\b/giu, (word) => {
    return PRONOUNS[word.toLowerCase()] ?? word;
  });
}

export type CodeLanguage = "ts" | "js" | "python" | "sql" | "bash" | "css" | "go" | "rust";

export function detectCodeLanguage(text: string): CodeLanguage {
  const lower = text.toLowerCase();
  if (/\bpython|\bdjango|\bpandas|\.py\b/.test(lower)) return "python";
  if (/\bsql\b|\bpostgres|\bmysql|\bsqlite|\bquery\b|\btable\b/.test(lower)) return "sql";
  if (/\bbash\b|\bshell\b|\bscript\b|\bcli\b|\bterminal\b|\bcron\b/.test(lower)) return "bash";
  if (/\bcss\b|\bcenter a div\b|\bflexbox\b|\bgrid layout\b|\btailwind\b/.test(lower)) return "css";
  if (/\bgolang\b|\bgo (?:code|function|program)\b/.test(lower)) return "go";
  if (/\brust\b|\bcargo\b/.test(lower)) return "rust";
  if (/\bjavascript\b|\bnode(?:\.js)?\b|\bjs\b/.test(lower)) return "js";
  return "ts";
}

/** camelCase identifier from keywords ("parse csv file" → "parseCsvFile"). */
export function identifierFrom(words: readonly string[], fallback: string): string {
  const parts = words
    .flatMap((word) => word.split(/[^\p{L}\p{N}]+/u))
    .filter((part) => /^[A-Za-z][A-Za-z0-9]*$/.test(part))
    .slice(0, 3)
    .map((part, index) =>
      index === 0
        ? part.toLowerCase().replace(/(?<=[a-z]{3}[^s])s$/, "")
        : part.charAt(0).toUpperCase() + part.slice(1).toLowerCase(),
    );
  return parts.length > 0 ? parts.join("") : fallback;
}

/**
 * The text's most salient words: content words ranked by how often they occur (ties: first
 * seen), given back in the order they first appear so they read naturally.
 */
export function salientWords(text: string, max: number): string[] {
  const candidates = extractKeywords(text, 40, { ranked: false });
  const lower = text.toLowerCase();
  const count = (word: string) => lower.split(word.toLowerCase()).length - 1;
  const ranked = candidates
    .map((word, index) => ({ word, index, count: count(word) }))
    .sort((a, b) => b.count - a.count || a.index - b.index)
    .slice(0, max);
  return ranked.sort((a, b) => a.index - b.index).map((entry) => entry.word);
}
