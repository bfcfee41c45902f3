/**
 * The compaction's offline answer (registered with the offline model by root/offline-answers.ts):
 * a summary of an older stretch of conversation that names its topics (the member's most salient
 * words) and its decisions, tasks, open questions and risks (sentences that say so), folded into
 * the previous summary so there is only ever one; plus the same findings as lists for the
 * workstream state. Answered as the JSON ./summarize.ts asks for, from the transcript it writes.
 */
import { TRANSCRIPT_LABELS } from "@/lib/models/short-text";
import { salientWords } from "@/lib/text/salient-words";
import { COMPACTION_LABELS } from "./summarize";

export type CompactionFindings = {
  summary: string;
  decisions: Array<{ text: string; rationale: string }>;
  tasks: string[];
  openQuestions: string[];
  risks: string[];
};

const SECTIONS = ["Topics", "Decisions", "Tasks", "Open questions", "Risks"] as const;
type Section = (typeof SECTIONS)[number];
type Sections = Record<Section, string[]>;

const MAX_TOPICS = 14;
const NEW_TOPICS = 8;
const MAX_ITEMS: Record<Exclude<Section, "Topics">, number> = {
  Decisions: 6,
  Tasks: 5,
  "Open questions": 4,
  Risks: 4,
};
const PHRASE_MAX = 140;

const DECISION =
  /^(?:please\s+)?(?:record the decision|decide)\s*:\s*|\b(?:we|i)\s+(?:have\s+)?(?:decided|agreed|chose|settled on)\b|\b(?:we(?:'ll| will)|let's)\s+go with\b|\bthe decision is\b/iu;
const TASK =
  /^(?:please\s+)?add a task\s*:\s*|^todo\s*:\s*|\b(?:we|i)\s+(?:still\s+)?(?:need|have)\s+to\b/iu;
const QUESTION =
  /^(?:please\s+)?add an open question\s*:\s*|\bopen question\b|\bnot sure (?:whether|if)\b/iu;
const RISK = /^(?:please\s+)?add a risk\s*:\s*|\brisks?\b/iu;

// Words the findings are full of that say nothing of the subject ("we decided to …").
const FILLER = new Set(
  "decided decide agreed agree chose settled need needs needed still want wants asked ask whether sure get part".split(
    " ",
  ),
);

/**
 * The range's topics: its most frequent content words, and the most frequent word of each
 * message, so a subject raised once in a long range is named too; in the order they appear.
 */
function topicsOf(lines: string[], max: number): string[] {
  const text = lines.join("\n");
  const lower = text.toLowerCase();
  const count = (word: string) => lower.split(word.toLowerCase()).length - 1;
  const ranked = salientWords(text, 40)
    .filter((word) => !FILLER.has(word.toLowerCase()))
    .map((word) => ({ word, count: count(word), at: lower.indexOf(word.toLowerCase()) }))
    .sort((a, b) => b.count - a.count || a.at - b.at);
  const perLine = lines.flatMap((line) => {
    const words = line.toLowerCase();
    const best = ranked.find((entry) => words.includes(entry.word.toLowerCase()));
    return best ? [best] : [];
  });
  const chosen = [...new Set([...ranked.slice(0, 3), ...perLine, ...ranked])].slice(0, max);
  return chosen.sort((a, b) => a.at - b.at).map((entry) => entry.word);
}

function clean(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/** The sentences of a line, roughly: split after . ! ? and at semicolons. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|;\s*/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** A finding as the summary and the state keep it: the request's prefix dropped, one line. */
function phrase(sentence: string, prefix: RegExp): string {
  const text = sentence.replace(prefix, (match) => (match.trimEnd().endsWith(":") ? "" : match));
  const trimmed = text.replace(/[.!?]+$/u, "").trim();
  return [...trimmed].length > PHRASE_MAX
    ? `${[...trimmed].slice(0, PHRASE_MAX - 1).join("")}…`
    : trimmed;
}

function splitRationale(text: string): { text: string; rationale: string } {
  const match = /^(.*?)\s+because\s+(.+)$/iu.exec(text);
  return match?.[1] && match[2] ? { text: match[1], rationale: match[2] } : { text, rationale: "" };
}

/** A summary this task wrote, back as its sections; a summary of another shape as its words. */
function parsePrevious(text: string): Sections {
  const sections: Sections = {
    Topics: [],
    Decisions: [],
    Tasks: [],
    "Open questions": [],
    Risks: [],
  };
  const pattern = new RegExp(`(${SECTIONS.join("|")}): `, "gu");
  const parts = text.split(pattern);
  if (parts.length < 3) {
    sections.Topics = salientWords(text, NEW_TOPICS);
    return sections;
  }
  for (let index = 1; index + 1 < parts.length; index += 2) {
    const name = parts[index] as Section;
    const body = (parts[index + 1] ?? "").trim().replace(/\.$/u, "");
    const separator = name === "Topics" ? "," : ";";
    sections[name] = body
      .split(separator)
      .map((item) => item.trim())
      .filter(Boolean);
  }
  return sections;
}

function unique(items: string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function render(sections: Sections): string {
  return SECTIONS.filter((name) => sections[name].length > 0)
    .map((name) => `${name}: ${sections[name].join(name === "Topics" ? ", " : "; ")}.`)
    .join(" ");
}

/**
 * Fits the summary within `max` characters: older items go first (the previous summary's items
 * sit before the new ones in every list but Topics, where they sit after), lists take turns.
 */
function fitWithin(sections: Sections, max: number): string {
  const order: Section[] = ["Topics", "Risks", "Open questions", "Tasks", "Decisions"];
  let text = render(sections);
  while (text.length > max) {
    const longest = order.find((name) => sections[name].length > 1);
    if (!longest) return text.slice(0, max);
    if (longest === "Topics") sections.Topics.pop();
    else sections[longest].shift();
    text = render(sections);
  }
  return text;
}

/**
 * The compaction of a transcript: `Summary limit: N`, an optional `Previous summary: …`, then
 * one `Member: …` / `Agent: …` / `Tools used: …` line per message.
 */
export function composeCompaction(transcript: string): CompactionFindings {
  let previous = "";
  let limit = 2_000;
  const member: string[] = [];
  const agent: string[] = [];
  for (const line of transcript.split("\n")) {
    const [label, ...rest] = line.split(":");
    const body = rest.join(":").trim();
    if (label === COMPACTION_LABELS.previous) previous = body;
    else if (label === COMPACTION_LABELS.limit) limit = Number(body) || limit;
    else if (label === TRANSCRIPT_LABELS.member) member.push(clean(body));
    else if (label === TRANSCRIPT_LABELS.agent) agent.push(clean(body));
  }
  const topics = topicsOf(member, NEW_TOPICS);
  if (topics.length < 3) topics.push(...topicsOf(agent, NEW_TOPICS - topics.length));

  const found = {
    decisions: [] as string[],
    tasks: [] as string[],
    questions: [] as string[],
    risks: [] as string[],
  };
  for (const sentence of member.flatMap(sentences)) {
    if (DECISION.test(sentence)) found.decisions.push(phrase(sentence, DECISION));
    else if (TASK.test(sentence)) found.tasks.push(phrase(sentence, TASK));
    else if (QUESTION.test(sentence)) found.questions.push(phrase(sentence, QUESTION));
    else if (RISK.test(sentence)) found.risks.push(phrase(sentence, RISK));
  }

  const earlier = previous ? parsePrevious(previous) : parsePrevious("");
  const capped = (name: Exclude<Section, "Topics">, fresh: string[]) =>
    unique([...earlier[name], ...fresh]).slice(-MAX_ITEMS[name]);
  const sections: Sections = {
    Topics: unique([...topics, ...earlier.Topics]).slice(0, MAX_TOPICS),
    Decisions: capped("Decisions", found.decisions),
    Tasks: capped("Tasks", found.tasks),
    "Open questions": capped("Open questions", found.questions),
    Risks: capped("Risks", found.risks),
  };
  return {
    summary: fitWithin(sections, limit),
    decisions: unique(found.decisions).map(splitRationale),
    tasks: unique(found.tasks),
    openQuestions: unique(found.questions),
    risks: unique(found.risks),
  };
}

/** The compaction task's answer: the findings as the JSON the compaction's schema reads. */
export function answerCompactionOffline({ prompt }: { prompt: string }): string {
  return JSON.stringify(composeCompaction(prompt));
}
