/**
 * The workstreams' offline answers, registered with the offline model by root/offline-answers.ts:
 * a conversation's title and a recent-activity line (both from the member's most salient words in
 * the transcript lib/models/short-text.ts writes), and the reports of a message sent to another
 * workstream and of a search of a workstream's history.
 */
import { z } from "zod";
import { TRANSCRIPT_LABELS } from "@/lib/models/short-text";
import { salientWords } from "@/lib/text/salient-words";

function linesLabelled(transcript: string, label: string): string[] {
  const prefix = `${label}:`;
  return transcript
    .split("\n")
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length).trim());
}

function titleCase(word: string): string {
  return word === word.toLowerCase() ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/** The title task: the member's four most salient words (else the agent's), in Title Case. */
export function offlineTitle({ prompt }: { prompt: string }): string {
  const member = salientWords(linesLabelled(prompt, TRANSCRIPT_LABELS.member).join("\n"), 4);
  const words = member.length
    ? member
    : salientWords(linesLabelled(prompt, TRANSCRIPT_LABELS.agent).join("\n"), 4);
  return words.length ? words.map(titleCase).join(" ") : "Quick Chat";
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

// The line says what happened in its own verb; a request's opening verb is not its subject.
const VERBS: ReadonlyArray<[RegExp, string]> = [
  [/\b(code|function|script|sql|query|bug|refactor|implement)\b/iu, "Worked on code for"],
  [/\b(compare|versus|vs\.?)\b/iu, "Compared"],
  [/\b(draft|write|email|letter|post)\b/iu, "Drafted"],
  [/\b(summari[sz]e|recap)\b/iu, "Summarized"],
  [/\b(list|ideas|options|brainstorm)\b/iu, "Listed options for"],
];
const OPENING_VERB =
  /^\s*(?:please\s+)?(?:draft|write|compose|compare|list|explain|summari[sz]e|describe|outline|plan|review|prepare|create|build|design|find|check|fix|refactor|implement)\b/iu;

/** The activity task: "Compared X and Y, using TOOL" from the member's words and the tools used. */
export function offlineActivity({ prompt }: { prompt: string }): string {
  const member = linesLabelled(prompt, TRANSCRIPT_LABELS.member).join("\n");
  const words = salientWords(member.replace(OPENING_VERB, ""), 3);
  const verb = VERBS.find(([pattern]) => pattern.test(member))?.[1] ?? "Discussed";
  const tools = linesLabelled(prompt, TRANSCRIPT_LABELS.tools)
    .flatMap((line) => line.split(","))
    .map((name) => name.trim())
    .filter(Boolean);
  const said = words.length ? `${verb} ${joinWords(words)}` : "Talked things over";
  return tools.length ? `${said}, using ${joinWords(tools)}` : said;
}

const sentResult = z.object({ sent: z.literal(true), title: z.string() });

export function reportSentMessage(output: unknown): string | undefined {
  const parsed = sentResult.safeParse(output);
  return parsed.success ? `I sent the message to “${parsed.data.title}”.` : undefined;
}

const searchResult = z.object({
  query: z.string(),
  results: z.array(z.object({ role: z.string(), snippet: z.string(), at: z.string() })),
});

export function reportHistorySearch(output: unknown): string | undefined {
  const parsed = searchResult.safeParse(output);
  if (!parsed.success) return undefined;
  const { query, results } = parsed.data;
  if (results.length === 0) return `I found nothing earlier in this workstream about “${query}”.`;
  return [
    `I found ${results.length} earlier message${results.length === 1 ? "" : "s"} about “${query}”:`,
    "",
    ...results.map(
      (hit) =>
        `- ${hit.role === "user" ? "you" : "the agent"}, ${hit.at.slice(0, 10)}: ${hit.snippet}`,
    ),
  ].join("\n");
}
