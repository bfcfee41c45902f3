// One short line from a conversation, for background work (a workstream's title, a recent-activity
// line, the memory block's summary): the configured model's fast profile, or the offline model,
// which answers with the task's registered offline answer (see docs/offline-model.md). The
// transcript is the only content sent; the result is one plain line, cut to the caller's limits
// whatever the model says.
import "server-only";
import { generateModelText } from "./calls";
import { resolveModel } from "./registry";

/** How background tasks write their transcripts, one labelled line per entry. */
export const TRANSCRIPT_LABELS = { member: "Member", agent: "Agent", tools: "Tools used" } as const;

export type TranscriptEntry =
  | { role: "member" | "agent"; text: string }
  | { role: "tools"; names: string[] };

/** The tasks answered with one line (the extraction tasks answer structured data instead). */
export type ShortTextTask = "title" | "activity" | "memory-summary";

const INSTRUCTIONS: Record<ShortTextTask, string> = {
  title:
    "You name conversations. Reply with a title of at most 6 words that says what the conversation is about. No quotes, no final punctuation, nothing else.",
  activity:
    "You write a member's activity feed. Reply with one line of at most 12 words, in the past tense, saying what happened in this exchange. Do not quote the member, do not copy bracketed commands, nothing else.",
  "memory-summary":
    "You keep the memory of a long piece of work. Below are notes, each labelled with the role that wrote it (an agent's id, or member for the person), and possibly the previous summary. Reply with ONE summary that replaces all of them: it keeps what the previous summary said (shortened if needed) and, for every note, who wrote it and its key point (names, numbers, decisions). Group points by role as `role: point, point; role: point`. At most 450 characters, plain text, no preamble, nothing else.",
};

/** How many tokens each task may answer with: a title is a few words, a summary a paragraph. */
const MAX_OUTPUT_TOKENS: Record<ShortTextTask, number> = {
  title: 40,
  activity: 40,
  "memory-summary": 200,
};

/** Each entry on its own labelled line; newlines inside an entry become spaces. */
export function writeTranscript(entries: TranscriptEntry[], maxChars = 6_000): string {
  const lines = entries.map((entry) =>
    entry.role === "tools"
      ? `${TRANSCRIPT_LABELS.tools}: ${entry.names.join(", ")}`
      : `${TRANSCRIPT_LABELS[entry.role]}: ${entry.text.replace(/\s+/gu, " ").trim()}`,
  );
  const transcript = lines.join("\n");
  return transcript.length > maxChars ? transcript.slice(0, maxChars) : transcript;
}

/** A model's line made safe to show: one line, no wrapping quotes, at most `maxWords`/`maxChars`. */
export function cleanLine(
  raw: string,
  { maxWords, maxChars }: { maxWords: number; maxChars: number },
): string {
  const line = raw
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/^["'“”‘’`*_#]+|["'“”‘’`*_]+$/gu, "")
    .replace(/[.。!]+$/u, "")
    .trim();
  const words = line.split(" ").filter(Boolean).slice(0, maxWords).join(" ");
  return [...words].length > maxChars ? [...words].slice(0, maxChars).join("").trimEnd() : words;
}

export async function generateShortText({
  task,
  transcript,
  signal,
}: {
  task: ShortTextTask;
  transcript: string;
  signal?: AbortSignal;
}): Promise<string> {
  const { model } = await resolveModel("fast");
  const result = await generateModelText({
    call: task,
    model,
    instructions: INSTRUCTIONS[task],
    prompt: transcript,
    maxOutputTokens: MAX_OUTPUT_TOKENS[task],
    abortSignal: signal,
    providerOptions: { offline: { task } },
  });
  return result.text;
}
