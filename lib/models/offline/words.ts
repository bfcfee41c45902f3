/**
 * Light-weight text analysis for the offline model: keywords, a restatable topic phrase,
 * short titles, the kind of request (question, code, list, …) and a code language guess.
 */

const STOPWORDS = new Set(
  (
    "a an the and or but if then else when while of to in on at by for with without from into onto " +
    "about above below over under again further once here there all any both each few more most " +
    "other some such no nor not only own same so than too very can will just should now is are was " +
    "were be been being have has had having do does did doing i me my myself we our ours you your " +
    "yours he him his she her it its they them their what which who whom this that these those am " +
    "would could might must shall may also how why where please thanks thank hey hello hi want need " +
    "like make get give tell show help let lets use using write explain know think way best good " +
    "really something anything thing things some one two able sure okay ok yes maybe just still " +
    "there's it's i'm i'd i've can't don't doesn't isn't what's how's"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'+#_-]*/gu;

/** Content words of the text, in order of first appearance, deduplicated (case-insensitive). */
export function extractKeywords(text: string, max = 6): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0].replace(/['_-]+$/u, "");
    const lower = word.toLowerCase();
    if (seen.has(lower) || STOPWORDS.has(lower)) continue;
    if (word.length < 3 && !/\d|[+#]/u.test(word)) continue;
    seen.add(lower);
    out.push(/\p{Lu}/u.test(word.slice(1)) || /^\p{Lu}{2,}/u.test(word) ? word : lower);
    if (out.length >= max) break;
  }
  return out;
}

const LEADING_FILLER =
  /^(?:(?:hey|hi|hello|ok(?:ay)?|so|well|please|pls)[,!.]?\s+)*(?:(?:can|could|would|will) you(?: please)?\s+|i(?:'d| would) like (?:you )?to\s+|i (?:want|need) (?:you )?to\s+|help me(?: to)?\s+|tell me(?: about)?\s+|please\s+)?/i;

/** The user's request as a short phrase that can be restated ("set up a Postgres backup"). */
export function topicPhrase(text: string, maxLength = 90): string {
  const firstLine = text.split(/\n/u).find((line) => line.trim().length > 0) ?? "";
  const firstSentence = firstLine.split(/(?<=[.?!])\s/u)[0] ?? firstLine;
  let phrase = firstSentence.trim().replace(LEADING_FILLER, "");
  phrase = phrase.replace(/^(?:how (?:do|can|should) (?:i|we|you)\s+)/i, "");
  phrase = phrase.replace(/[\s?!.:;,]+$/u, "").replace(/\s+/gu, " ");
  if (phrase.length > maxLength) {
    const cut = phrase.lastIndexOf(" ", maxLength);
    phrase = `${phrase.slice(0, cut > 20 ? cut : maxLength)}…`;
  }
  if (/^\p{Lu}\p{Ll}/u.test(phrase) && !/^I\b/u.test(phrase)) {
    phrase = phrase.charAt(0).toLowerCase() + phrase.slice(1);
  }
  return phrase.length > 0 ? phrase : "what you have in mind";
}

function titleCaseWord(word: string): string {
  return word === word.toLowerCase() ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/** A short Title Case title built from the text's keywords. */
export function makeTitle(text: string, maxLength = 60): string {
  const words = extractKeywords(text, 5).map(titleCaseWord);
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

export type Intent =
  | "greeting"
  | "thanks"
  | "code"
  | "compare"
  | "list"
  | "explain"
  | "howto"
  | "write"
  | "summarize"
  | "general";

const INTENT_PATTERNS: ReadonlyArray<[Intent, RegExp]> = [
  [
    "code",
    /\b(code|function|snippet|script|implement|regex|sql|query|class|component|api endpoint|typescript|javascript|python|rust|golang|bash|shell|css|html|program|refactor|bug|debug)\b/i,
  ],
  ["compare", /\b(vs\.?|versus|compare|comparison|difference between|better than|or should i)\b/i],
  ["summarize", /\b(summari[sz]e|summary|tl;?dr|recap|key points)\b/i],
  ["list", /\b(list|ideas|options|suggestions|tips|examples|brainstorm|alternatives|ways to)\b/i],
  ["write", /\b(write|draft|compose|email|letter|poem|story|post|blog|tweet|message to)\b/i],
  ["howto", /\b(how (?:do|can|should|to|would)|steps? to|guide|set ?up|install|configure)\b/i],
  ["explain", /\b(what (?:is|are|does)|why|explain|meaning of|understand|how does)\b/i],
];

export function detectIntent(text: string): Intent {
  const trimmed = text.trim();
  if (/^(?:hi|hello|hey|yo|hiya|good (?:morning|afternoon|evening)|howdy)\b[\s!.,]*\S{0,20}$/i.test(trimmed)) {
    return "greeting";
  }
  if (/^(?:thanks|thank you|thx|ty|cheers|great,? thanks)\b/i.test(trimmed) && trimmed.length < 60) {
    return "thanks";
  }
  for (const [intent, pattern] of INTENT_PATTERNS) {
    if (pattern.test(trimmed)) return intent;
  }
  return "general";
}

/** Two things being compared ("X vs Y", "difference between X and Y"), if recognisable. */
export function comparedPair(text: string): [string, string] | null {
  const match =
    /\b(?:between\s+)?([\p{L}\p{N}.+#-]+(?:\s[\p{L}\p{N}.+#-]+)?)\s+(?:vs\.?|versus|and|or)\s+([\p{L}\p{N}.+#-]+(?:\s[\p{L}\p{N}.+#-]+)?)/iu.exec(
      text,
    );
  if (!match?.[1] || !match[2]) return null;
  const clean = (s: string) => s.replace(/^(?:the|a|an)\s+/i, "").replace(/[?.!,]+$/u, "");
  return [clean(match[1]), clean(match[2])];
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
      index === 0 ? part.toLowerCase() : part.charAt(0).toUpperCase() + part.slice(1).toLowerCase(),
    );
  return parts.length > 0 ? parts.join("") : fallback;
}
