/**
 * Reads what kind of request a user message is (question, code, list, comparison, …) and pulls
 * out a phrase the offline model can restate grammatically: an action ("deploy your app"), a
 * subject ("a Python function that parses CSV files"), the question itself, or a compared pair.
 */
import { swapPronouns } from "./words";

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

export interface RequestShape {
  intent: Intent;
  /** Verb phrase that reads after "to": "set up nightly backups to S3". */
  action: string | undefined;
  /** Noun phrase: "a Python function that parses CSV files", or "for a party" for lists. */
  subject: string | undefined;
  /** The first sentence, when it is a short question. */
  question: string | undefined;
  pair: [string, string] | undefined;
  /** Best short phrase describing the request (for reasoning and summaries). */
  gist: string;
}

const INTENT_PATTERNS: ReadonlyArray<[Intent, RegExp]> = [
  [
    "code",
    /\b(code|function|snippet|script|implement|regex|sql|query|class|component|endpoint|typescript|javascript|python|rust|golang|bash|shell|css|html|program|refactor|debug)\b/i,
  ],
  ["compare", /\b(vs\.?|versus|compare|comparison|difference between|better than)\b/i],
  ["summarize", /\b(summari[sz]e|summary|tl;?dr|recap|key points)\b/i],
  ["list", /\b(list|ideas|options|suggestions|tips|examples|brainstorm|alternatives|ways to)\b/i],
  ["write", /\b(write|draft|compose|email|letter|poem|story|blog post|tweet)\b/i],
  ["howto", /\b(how (?:do|can|should|to|would|could)|steps? to|set ?up|install|configure)\b/i],
  ["explain", /\b(what (?:is|are|does)|what's|why|explain|meaning of|how does|define)\b/i],
];

const MAX_PHRASE = 100;
const FILLER = /^(?:(?:hey|hi|hello|ok(?:ay)?|so|well)[,!.]?\s+)+/i;
const VERB_LEAD =
  /^(?:(?:can|could|would|will) you(?: please)?|please|i(?:'d| would) like (?:you )?to|i (?:want|need|have) (?:you )?to|help me(?: to)?|i'm trying to|i am trying to)\s+/i;
const HOWTO_LEAD =
  /^(?:how (?:do|can|should|would|could|might) (?:i|we|you|one)|how to|the best way to|steps? to)\s+/i;
const MAKE_LEAD =
  /^(?:write|create|implement|build|make|generate|draft|compose|code|give|show|summari[sz]e|recap)\s+(?:me\s+|us\s+)?/i;
const LIST_SUBJECT =
  /\b(?:ideas|options|suggestions|tips|examples|alternatives|ways)\s+((?:for|to|on|about)\s+.+)$/i;
const EXPLAIN_SUBJECT =
  /^(?:what(?:'s| is| are)|explain|define|tell me about)\s+(?:the concept of\s+)?(.+)$/i;

function tidy(phrase: string | undefined): string | undefined {
  if (phrase === undefined) return undefined;
  const clean = swapPronouns(
    phrase
      .replace(/[\s?!.:;,]+$/u, "")
      .replace(/\s+/gu, " ")
      .trim(),
  );
  return clean.length > 0 && clean.length <= MAX_PHRASE ? clean : undefined;
}

export function detectIntent(text: string): Intent {
  const trimmed = text.trim();
  const greeting =
    /^(?:hi|hello|hey|yo|hiya|good (?:morning|afternoon|evening)|howdy)\b[\s!.,]*\S{0,20}$/i;
  if (greeting.test(trimmed)) return "greeting";
  if (
    /^(?:thanks|thank you|thx|ty|cheers|great,? thanks)\b/i.test(trimmed) &&
    trimmed.length < 60
  ) {
    return "thanks";
  }
  for (const [intent, pattern] of INTENT_PATTERNS) {
    if (pattern.test(trimmed)) return intent;
  }
  return "general";
}

const PAIR =
  /(?:between\s+)?([\p{L}\p{N}.+#-]+(?:\s[\p{L}\p{N}.+#-]+)?)\s+(?:vs\.?|versus|and|or)\s+([\p{L}\p{N}.+#-]+(?:\s[\p{L}\p{N}.+#-]+)?)/iu;
const PAIR_NOISE = /^(?:the|a|an|compare|comparing|between)\s+|\s+(?:for|in|with|to|on|when|if)$/iu;

/** Two things being compared ("X vs Y", "difference between X and Y"), if recognisable. */
export function comparedPair(text: string): [string, string] | undefined {
  const match = PAIR.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const clean = (s: string) =>
    s
      .replace(/[?.!,]+$/u, "")
      .replace(PAIR_NOISE, "")
      .replace(PAIR_NOISE, "");
  const a = clean(match[1]);
  const b = clean(match[2]);
  return a.length > 0 && b.length > 0 ? [a, b] : undefined;
}

export function describeRequest(text: string): RequestShape {
  const intent = detectIntent(text);
  const firstLine = text.split(/\n/u).find((line) => line.trim().length > 0) ?? "";
  const firstSentence = (firstLine.match(/^.*?[.?!](?=\s|$)/u)?.[0] ?? firstLine).trim();
  let body = firstSentence.replace(FILLER, "");
  let verbLead = false;
  while (VERB_LEAD.test(body)) {
    verbLead = true;
    body = body.replace(VERB_LEAD, "");
  }

  let action: string | undefined;
  let subject: string | undefined;
  if (HOWTO_LEAD.test(body)) action = tidy(body.replace(HOWTO_LEAD, ""));
  else if (MAKE_LEAD.test(body)) subject = tidy(body.replace(MAKE_LEAD, ""));
  else if (verbLead && intent !== "explain") action = tidy(body);
  if (intent === "list") subject = tidy(LIST_SUBJECT.exec(body)?.[1]) ?? subject;
  if (intent === "explain") subject = tidy(EXPLAIN_SUBJECT.exec(body)?.[1]);

  const isQuestion = /\?$/u.test(firstSentence) && firstSentence.length <= 140;
  const swapped = swapPronouns(firstSentence);
  const question = isQuestion ? swapped.charAt(0).toUpperCase() + swapped.slice(1) : undefined;
  const pair = intent === "compare" ? comparedPair(firstSentence) : undefined;
  const gist =
    action ??
    subject ??
    (pair ? `${pair[0]} vs ${pair[1]}` : undefined) ??
    tidy(body) ??
    "your request";
  return { intent, action, subject, question, pair, gist };
}
