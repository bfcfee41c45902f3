// The model's part of a compaction: one summary of the range that folds in the previous summary,
// plus the range's decisions, tasks, open questions and risks for the workstream state. The
// configured model's fast profile (or the offline model) answers with a JSON object; the findings
// become a WorkstreamStateDelta of additions, leaving out what the state already holds.
import "server-only";
import { Output } from "ai";
import { countTokens } from "gpt-tokenizer";
import { z } from "zod";
import { config } from "@/lib/config";
import { windowOf } from "@/lib/context/window";
import { generateModelText } from "@/lib/models/calls";
import { resolveModel } from "@/lib/models/registry";
import { TRANSCRIPT_LABELS } from "@/lib/models/short-text";
import { strictSchema } from "@/lib/models/strict-schema";
import {
  STATE_ITEM_MAX,
  type WorkstreamState,
  type WorkstreamStateDelta,
} from "@/lib/state/schema";
import { toStorableText } from "@/lib/text/storable";
import type { RangeMessage } from "./store";

/** The compaction prompt's lines besides the conversation's own. */
export const COMPACTION_LABELS = {
  previous: "Previous summary",
  limit: "Summary limit",
} as const;

/** What the model answers: every field is required, so strict structured output accepts it. */
export const findingsSchema = z.object({
  summary: z.string(),
  decisions: z.array(z.object({ text: z.string(), rationale: z.string() })),
  tasks: z.array(z.string()),
  openQuestions: z.array(z.string()),
  risks: z.array(z.string()),
});
export type Findings = z.infer<typeof findingsSchema>;
const findingsOutput = strictSchema(findingsSchema);

/** How many of each finding one compaction adds to the state at most. */
const MAX_ADDED = { keyDecisions: 4, tasks: 4, openQuestions: 3, risks: 3 } as const;
/** A decision the compaction found is less certain than one the agent recorded on purpose. */
const FOUND_CONFIDENCE = 0.6;
/** The longest one message may be in the transcript, before it is cut further to fit. */
const MESSAGE_CHARS = 2_000;
const MIN_MESSAGE_CHARS = 200;

const INSTRUCTIONS = (limit: number) =>
  [
    "You compact the earlier part of a long conversation between a member and an AI agent, so the agent can keep working without it.",
    "Below are the previous summary (if any) and the conversation, one labelled line per message.",
    `Write ONE summary that replaces both, at most ${limit} characters of plain text: keep what the previous summary said (shortened if needed) and add this part's topics, decisions with their reasons, open questions, tasks and the facts the agent will need (names, numbers, dates).`,
    "Also list this part's key decisions (with rationale), tasks, open questions and risks for the workstream's state, each in one short sentence; use empty lists when there are none.",
  ].join(" ");

type Part = { type?: unknown; text?: unknown; toolName?: unknown };

/** A message's text parts and the names of the tools it used. */
function contentOf(message: RangeMessage): { text: string; tools: string[] } {
  const parts = Array.isArray(message.parts) ? (message.parts as Part[]) : [];
  const text = parts
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join(" ")
    .replace(/\s+/gu, " ")
    .trim();
  const tools = new Set<string>();
  for (const part of parts) {
    if (typeof part.type !== "string") continue;
    if (part.type === "dynamic-tool" && typeof part.toolName === "string") tools.add(part.toolName);
    else if (part.type.startsWith("tool-")) tools.add(part.type.slice("tool-".length));
  }
  return { text, tools: [...tools] };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The prompt: the summary's limit, the previous summary, then the range one labelled line per
 * message. Long messages are cut, shorter and shorter, until the whole fits `maxTokens`.
 */
export function compactionTranscript({
  previousSummary,
  messages,
  limit,
  maxTokens,
}: {
  previousSummary: string | null;
  messages: RangeMessage[];
  limit: number;
  maxTokens: number;
}): string {
  const head = [
    `${COMPACTION_LABELS.limit}: ${limit}`,
    ...(previousSummary
      ? [`${COMPACTION_LABELS.previous}: ${previousSummary.replace(/\s+/gu, " ").trim()}`]
      : []),
  ];
  const contents = messages.map(contentOf);
  const linesAt = (max: number) =>
    contents.flatMap(({ text, tools }, index) => {
      const role = messages[index]?.role === "user" ? "member" : "agent";
      return [
        ...(tools.length ? [`${TRANSCRIPT_LABELS.tools}: ${tools.join(", ")}`] : []),
        ...(text ? [`${TRANSCRIPT_LABELS[role]}: ${cut(text, max)}`] : []),
      ];
    });
  const render = (max: number, skip = 0) => [...head, ...linesAt(max).slice(skip)].join("\n");
  // Counted directly, not through the builder's cache: a transcript is counted once and never
  // again, and would only push the turns' sections out of it.
  const tokensOf = (text: string) =>
    Math.ceil(countTokens(text) * (1 + config.context.tokenizerMargin));
  let max = MESSAGE_CHARS;
  let transcript = render(max);
  while (tokensOf(transcript) > maxTokens && max > MIN_MESSAGE_CHARS) {
    max = Math.max(MIN_MESSAGE_CHARS, Math.floor(max / 2));
    transcript = render(max);
  }
  // Still too long (a very long range): its oldest lines go, a tenth at a time; the limit and
  // the previous summary always stay first.
  const total = linesAt(max).length;
  for (let skip = 0; tokensOf(transcript) > maxTokens && skip < total; ) {
    skip += Math.max(1, Math.floor(total / 10));
    transcript = render(max, skip);
  }
  return transcript;
}

/** One paragraph, storable, at most `max` characters (cut at a word). */
export function summaryText(raw: string, max: number): string {
  const text = toStorableText(raw).replace(/\s+/gu, " ").trim();
  if (text.length <= max) return text;
  const cutAt = text.lastIndexOf(" ", max - 1);
  return `${text.slice(0, cutAt > max / 2 ? cutAt : max - 1)}…`;
}

const normalized = (text: string) => text.toLowerCase().replace(/\s+/gu, " ").trim();

/** The findings as additions to the state: trimmed, within limits, none the state holds. */
export function findingsToDelta(findings: Findings, state: WorkstreamState): WorkstreamStateDelta {
  const line = (text: string) =>
    cut(toStorableText(text).replace(/\s+/gu, " ").trim(), STATE_ITEM_MAX);
  /** The items whose text is new to the list (and to each other), at most `max`. */
  const fresh = <T>(list: keyof typeof MAX_ADDED, items: T[], textOf: (item: T) => string) => {
    const seen = new Set(state[list].map((item) => normalized(item.text)));
    return items
      .filter((item) => {
        const key = normalized(line(textOf(item)));
        if (!key || seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .slice(0, MAX_ADDED[list]);
  };
  const delta: WorkstreamStateDelta = {};
  const decisions = fresh("keyDecisions", findings.decisions, (decision) => decision.text);
  if (decisions.length) {
    delta.keyDecisions = {
      add: decisions.map((decision) => ({
        text: line(decision.text),
        rationale: line(decision.rationale),
        confidence: FOUND_CONFIDENCE,
      })),
    };
  }
  const same = (text: string) => text;
  const tasks = fresh("tasks", findings.tasks, same);
  if (tasks.length)
    delta.tasks = { add: tasks.map((text) => ({ text: line(text), status: "open" })) };
  const questions = fresh("openQuestions", findings.openQuestions, same);
  if (questions.length)
    delta.openQuestions = { add: questions.map((text) => ({ text: line(text) })) };
  const risks = fresh("risks", findings.risks, same);
  if (risks.length) delta.risks = { add: risks.map((text) => ({ text: line(text) })) };
  return delta;
}

export type RangeSummary = { summary: string; delta: WorkstreamStateDelta; model: string };

/** Summarizes the range with the model; throws when it gives no summary (the job retries). */
export async function summarizeRange(
  {
    previousSummary,
    messages,
    state,
    limit,
  }: {
    previousSummary: string | null;
    messages: RangeMessage[];
    state: WorkstreamState;
    /** The longest the summary may be, in characters. */
    limit: number;
  },
  { signal }: { signal?: AbortSignal } = {},
): Promise<RangeSummary> {
  const { model, modelId } = await resolveModel("fast");
  // The summarizer's own window bounds the transcript: the range plus room for the answer.
  const transcript = compactionTranscript({
    previousSummary,
    messages,
    limit,
    maxTokens: Math.floor(windowOf(modelId) * 0.6),
  });
  const { output } = await generateModelText({
    call: "compaction",
    model,
    instructions: INSTRUCTIONS(limit),
    prompt: transcript,
    output: Output.object({ schema: findingsOutput }),
    maxOutputTokens: Math.max(600, Math.ceil(limit / 2)),
    abortSignal: signal,
    providerOptions: { offline: { task: "compaction" } },
  });
  const summary = summaryText(output.summary, limit);
  if (!summary) throw new Error("The model gave an empty compaction summary");
  return { summary, delta: findingsToDelta(output, state), model: modelId };
}
