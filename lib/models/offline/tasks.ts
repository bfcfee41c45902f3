/**
 * Short background tasks the offline model answers instead of chatting: a conversation's title and
 * a one-line account of a turn for recent activity. The caller names the task in the call's
 * provider options (`{ offline: { task } }`), which real providers ignore, and sends a transcript
 * written with TRANSCRIPT_LABELS. Output is built from the member's own salient words, so it
 * depends on the conversation, never quotes it and never carries trigger syntax.
 */
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { detectIntent, type Intent } from "./request";
import { parseTriggers } from "./triggers";
import { extractKeywords } from "./words";

export const OFFLINE_TASKS = ["title", "activity"] as const;
export type OfflineTask = (typeof OFFLINE_TASKS)[number];

export const TRANSCRIPT_LABELS = { member: "Member", agent: "Agent", tools: "Tools used" } as const;

export function offlineTaskOf(options: LanguageModelV4CallOptions): OfflineTask | undefined {
  const task = options.providerOptions?.offline?.task;
  return OFFLINE_TASKS.find((known) => known === task);
}

function linesLabelled(transcript: string, label: string): string[] {
  const prefix = `${label}:`;
  return transcript
    .split("\n")
    .filter((line) => line.startsWith(prefix))
    .map((line) => parseTriggers(line.slice(prefix.length)).cleanText);
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

function titleCase(word: string): string {
  return word === word.toLowerCase() ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

function composeTitle(transcript: string): string {
  const member = linesLabelled(transcript, TRANSCRIPT_LABELS.member).join("\n");
  const words = salientWords(member, 4);
  const fallback = words.length
    ? words
    : salientWords(linesLabelled(transcript, TRANSCRIPT_LABELS.agent).join("\n"), 4);
  return fallback.length ? fallback.map(titleCase).join(" ") : "Quick Chat";
}

const INTENT_VERBS: Record<Intent, string> = {
  greeting: "Said hello",
  thanks: "Wrapped up",
  code: "Worked on code for",
  compare: "Compared",
  list: "Listed options for",
  explain: "Went over",
  howto: "Worked out how to handle",
  write: "Drafted",
  summarize: "Summarized",
  general: "Discussed",
};

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** Requests usually open with an imperative; the line says what happened in its own verb. */
const OPENING_VERB =
  /^\s*(?:please\s+)?(?:draft|write|compose|compare|list|explain|summari[sz]e|describe|outline|plan|sketch|review|estimate|schedule|organi[sz]e|prepare|create|build|design|find|check|analy[sz]e|calculate|translate|fix|refactor|implement)\b/iu;

function composeActivity(transcript: string): string {
  const member = linesLabelled(transcript, TRANSCRIPT_LABELS.member).join("\n");
  const words = salientWords(member.replace(OPENING_VERB, ""), 3);
  const intent = detectIntent(member);
  const tools = linesLabelled(transcript, TRANSCRIPT_LABELS.tools)
    .flatMap((line) => line.split(","))
    .map((name) => name.trim())
    .filter(Boolean);
  const verb = INTENT_VERBS[intent];
  const subject = words.length ? joinWords(words) : "";
  const said =
    subject && intent !== "greeting" && intent !== "thanks" ? `${verb} ${subject}` : verb;
  return tools.length ? `${said}, using ${joinWords(tools)}` : said;
}

export function composeTask(task: OfflineTask, transcript: string): string {
  return task === "title" ? composeTitle(transcript) : composeActivity(transcript);
}
