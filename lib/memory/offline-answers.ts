/**
 * The memory domain's offline answers, registered with the offline model by
 * root/offline-answers.ts: the memory block's summary (each note's role and key phrase, within
 * the state's item limit), the facts extracted from conversations (the member's sentences that
 * state a fact or preference, ./facts.ts), the reports of the memory tools, and the aside that
 * opens an answer with the memories the instructions hold.
 */
import { z } from "zod";
import { config } from "@/lib/config";
import { readSlices } from "@/lib/models/slices";
import { STATE_ITEM_MAX } from "@/lib/state/schema";
import { salientWords } from "@/lib/text/salient-words";
import { statedFacts } from "./facts";
import { MEMORY_LABELS } from "./summary";

/** The memory-facts task: each stated fact with the number of the message it came from. */
export function offlineFacts({ prompt }: { prompt: string }): string {
  const facts = readSlices(prompt)
    .filter((message) => message.role === "member")
    .flatMap((message) =>
      statedFacts(message.text, config.memory.factsPerSlice).map((fact) => ({
        message: message.message,
        ...fact,
      })),
    );
  return JSON.stringify({ facts });
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
  const clean = text.trim();
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
export function offlineMemorySummary({ prompt: transcript }: { prompt: string }): string {
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

const noteResult = z.object({ noted: z.literal(true), text: z.string() });

export function reportNote(output: unknown): string | undefined {
  const parsed = noteResult.safeParse(output);
  return parsed.success
    ? `I added this to the workstream's memory block: “${parsed.data.text}”`
    : undefined;
}

const rememberResult = z.union([
  z.object({
    remembered: z.literal(true),
    scope: z.string(),
    text: z.string(),
    merged: z.boolean(),
  }),
  z.object({
    remembered: z.literal(false),
    awaitingConfirmation: z.literal(true),
    text: z.string(),
  }),
]);
const recallResult = z.object({
  query: z.string(),
  memories: z.array(z.object({ text: z.string() })),
  note: z.string().optional(),
});

export function reportRemember(output: unknown): string | undefined {
  const parsed = rememberResult.safeParse(output);
  if (!parsed.success) return undefined;
  const result = parsed.data;
  if (!result.remembered) {
    return `Sharing this with the whole organization needs your confirmation, so I have not saved it yet: “${result.text}”`;
  }
  const where =
    result.scope === "agent"
      ? " in our conversations"
      : result.scope === "organization"
        ? " for the whole organization"
        : "";
  const again = result.merged ? " I knew this already, so it now counts for more." : "";
  return `I'll remember that${where}: “${result.text}”.${again}`;
}

export function reportRecall(output: unknown): string | undefined {
  const parsed = recallResult.safeParse(output);
  if (!parsed.success) return undefined;
  const result = parsed.data;
  const note = result.note ? `\n\n(${result.note})` : "";
  if (result.memories.length === 0) {
    return `I don't remember anything about “${result.query}”.${note}`;
  }
  return (
    [
      `Here is what I remember about “${result.query}”:`,
      "",
      ...result.memories.map((memory) => `- ${memory.text}`),
    ].join("\n") + note
  );
}

const SECTION = /<(pre-seeded-memories|retrieved-knowledge)>\n([\s\S]*?)\n<\/\1>/g;
const MAX_MENTIONED = 2;

function unescapeText(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The memories in the instructions, in the order they appear. */
function memoriesIn(system: string): string[] {
  const found: string[] = [];
  for (const match of system.matchAll(SECTION)) {
    for (const line of (match[2] ?? "").split("\n")) {
      if (line.startsWith("- ")) found.push(unescapeText(line.slice(2)));
    }
  }
  return found;
}

/** Words of four letters or more, cut to their first five (a crude stem: plans ~ planning). */
function keys(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? [];
  return new Set(words.map((word) => word.slice(0, 5)));
}

/** The memories that share a word with the message, at most two. */
function relevantMemories(system: string, message: string): string[] {
  const asked = keys(message);
  if (asked.size === 0) return [];
  return memoriesIn(system)
    .filter((memory) => [...keys(memory)].some((key) => asked.has(key)))
    .slice(0, MAX_MENTIONED);
}

/**
 * The aside an ordinary answer opens with: the memories the context builder put in
 * <pre-seeded-memories> and <retrieved-knowledge> that share a word with the member's message,
 * so a member without an API key sees memories at work ("From what I remember: …").
 */
export function rememberedAside({ system, text }: { system: string; text: string }) {
  const relevant = relevantMemories(system, text);
  if (relevant.length === 0) return undefined;
  return `From what I remember: ${relevant.map((memory) => `“${memory}”`).join(" and ")}.`;
}
