/**
 * Short background tasks the offline model answers instead of chatting: a conversation's title,
 * a one-line account of a turn for recent activity, the memory block's summary, the facts and
 * skills extracted from conversations (./extraction.ts), and the compaction of older history
 * (./compaction.ts). The caller names the task in the call's provider options
 * (`{ offline: { task } }`), which real providers ignore, and sends a transcript written with
 * TRANSCRIPT_LABELS. Output is built from the member's own words, so it depends on the
 * conversation and never carries trigger syntax. Titles, activity lines and summaries use salient
 * words only; facts quote the member's sentences that state a fact or preference, and the
 * compaction those that decide, plan, ask or warn.
 */
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { STATE_ITEM_MAX } from "@/lib/state/schema";
import { composeCompaction } from "./compaction";
import { composeFacts, composeSkills } from "./extraction";
import { TRANSCRIPT_LABELS } from "./labels";
import { detectIntent, type Intent } from "./request";
import { parseTriggers } from "./triggers";
import { salientWords } from "./words";

export { salientWords };

export const OFFLINE_TASKS = [
  "title",
  "activity",
  "memory-summary",
  "memory-facts",
  "skills",
  "compaction",
] as const;
export type OfflineTask = (typeof OFFLINE_TASKS)[number];

export { TRANSCRIPT_LABELS };

/**
 * The memory summary's input: an optional `Previous summary: …` line, then one `Note (role): …`
 * line per note, oldest first.
 */
export const MEMORY_LABELS = { previous: "Previous summary", note: "Note" } as const;

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
  switch (task) {
    case "memory-summary":
      return composeMemorySummary(transcript);
    case "memory-facts":
      return composeFacts(transcript);
    case "skills":
      return composeSkills(transcript);
    case "compaction":
      return JSON.stringify(composeCompaction(transcript));
    case "title":
      return composeTitle(transcript);
    case "activity":
      return composeActivity(transcript);
  }
}

// Words notes are full of that say nothing of their subject ("Decided to …", "check … before").
const NOTE_FILLER = new Set(
  (
    "decided decide agreed agree noted note remember prefers prefer wants asked said confirmed " +
    "member user team should must check checked needs needed before after next later soon today"
  ).split(" "),
);

type SummaryItem = { role: string; phrase: string; old: boolean };

/** A note's key phrase: its three most salient words that are not filler, in their order. */
function keyPhrase(text: string): string {
  const clean = parseTriggers(text).cleanText;
  const words = salientWords(clean, 8).filter((word) => !NOTE_FILLER.has(word.toLowerCase()));
  const phrase = words.slice(0, 3).join(" ");
  return phrase || clean.split(/\s+/u).slice(0, 3).join(" ");
}

/** A summary this task wrote ("role: phrase, phrase; role: phrase") back as items; else null. */
function parseSummary(text: string): SummaryItem[] | null {
  const items: SummaryItem[] = [];
  for (const group of text.split(";")) {
    const match = /^\s*([^:;,]{1,64}):\s*(.+?)\s*$/u.exec(group);
    if (!match?.[1] || !match[2]) return null;
    const role = match[1].trim();
    for (const phrase of match[2].split(",")) {
      if (phrase.trim()) items.push({ role, phrase: phrase.trim(), old: true });
    }
  }
  return items.length ? items : null;
}

function renderSummary(items: SummaryItem[]): string {
  const groups = new Map<string, string[]>();
  for (const item of items) groups.set(item.role, [...(groups.get(item.role) ?? []), item.phrase]);
  return [...groups].map(([role, phrases]) => `${role}: ${phrases.join(", ")}`).join("; ");
}

/** The phrase's first word that no other phrase has (what sets it apart), else its first word. */
function distinctWord(item: SummaryItem, items: SummaryItem[]): string {
  const words = item.phrase.split(" ");
  const elsewhere = new Set(
    items
      .filter((other) => other !== item)
      .flatMap((other) => other.phrase.toLowerCase().split(" ")),
  );
  return words.find((word) => !elsewhere.has(word.toLowerCase())) ?? words[0] ?? item.phrase;
}

/**
 * Fits the items within the limit: older phrases are shortened to the word that sets each apart,
 * then dropped, oldest first; the new notes' phrases are touched only after every older one is.
 */
function fitSummary(items: SummaryItem[], max: number): string {
  const fits = () => renderSummary(items).length <= max;
  for (const old of [true, false]) {
    for (const item of items) {
      if (fits()) return renderSummary(items);
      if (item.old === old) item.phrase = distinctWord(item, items);
    }
    while (!fits() && items.some((item) => item.old === old)) {
      items.splice(
        items.findIndex((item) => item.old === old),
        1,
      );
    }
  }
  return renderSummary(items).slice(0, max);
}

/**
 * The memory block's summary: each note's role and key phrase, grouped by role, after what the
 * previous summary held (so a rollup keeps it), within the item limit.
 */
function composeMemorySummary(transcript: string): string {
  const previousPrefix = `${MEMORY_LABELS.previous}:`;
  const notePattern = new RegExp(`^${MEMORY_LABELS.note} \\(([^)]{1,64})\\):\\s*(.*)$`, "u");
  const items: SummaryItem[] = [];
  for (const line of transcript.split("\n")) {
    if (line.startsWith(previousPrefix)) {
      const previous = line.slice(previousPrefix.length).trim();
      const parsed = parseSummary(previous);
      const words = salientWords(previous, 8).join(" ");
      items.push(...(parsed ?? (words ? [{ role: "earlier", phrase: words, old: true }] : [])));
      continue;
    }
    const note = notePattern.exec(line);
    if (note?.[1] && note[2]) {
      const phrase = keyPhrase(note[2]);
      if (phrase) items.push({ role: note[1].trim(), phrase, old: false });
    }
  }
  return items.length ? fitSummary(items, STATE_ITEM_MAX) : "";
}
