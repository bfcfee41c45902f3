/**
 * How the offline model reports what the context tools did, in plain words ("I recorded the
 * decision …", "I found 2 earlier messages …"), instead of the generic field dump other tool results get. A result
 * of another shape (an older tool, an error) gets the generic summary.
 */

import { z } from "zod";
import { summarizeReadAttachment } from "./attachments";

const LIST_LABELS: Record<string, string> = {
  currentPlan: "plan note",
  activeConstraints: "constraint",
  keyDecisions: "decision",
  tasks: "task",
  openQuestions: "open question",
  risks: "risk",
  artifacts: "artifact",
  agentContributions: "contribution",
};

const ref = z.object({ list: z.string(), id: z.string() });
const stateResult = z.object({
  added: z.array(ref.extend({ text: z.string() })),
  updated: z.array(ref),
  removed: z.array(ref),
  evicted: z.array(ref.extend({ text: z.string(), why: z.string() })),
});
const planResult = z.object({
  title: z.string(),
  status: z.string(),
  steps: z.array(z.object({ title: z.string(), status: z.string() })),
});

const label = (list: string) => LIST_LABELS[list] ?? list;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

function summarizeState(result: z.infer<typeof stateResult>): string {
  const lines: string[] = [];
  if (result.added.length > 0) {
    lines.push(
      "I recorded this in the workstream state:",
      "",
      ...result.added.map((item) => `- ${label(item.list)}: “${item.text}” (\`${item.id}\`)`),
    );
  }
  const edits = [
    result.updated.length > 0 ? `updated ${plural(result.updated.length, "item")}` : "",
    result.removed.length > 0 ? `removed ${plural(result.removed.length, "item")}` : "",
  ].filter(Boolean);
  if (edits.length > 0) {
    lines.push(
      ...(lines.length > 0 ? [""] : []),
      `I ${edits.join(" and ")} in the workstream state.`,
    );
  }
  if (lines.length === 0) lines.push("The workstream state needed no change.");
  if (result.evicted.length > 0) {
    lines.push(
      "",
      `To stay within its limits, the state let go of ${plural(result.evicted.length, "older item")}:`,
      "",
      ...result.evicted.map((item) => `- ${label(item.list)}: “${item.text}” (${item.why})`),
    );
  }
  return lines.join("\n");
}

function summarizePlan(result: z.infer<typeof planResult>): string {
  const steps = result.steps.map(
    (step, index) => `${index + 1}. ${step.title} — ${step.status.replace("_", " ")}`,
  );
  const head =
    result.status === "active"
      ? `I wrote the plan **${result.title}**:`
      : `I marked the plan **${result.title}** as ${result.status}.`;
  return steps.length > 0 && result.status === "active" ? `${head}\n\n${steps.join("\n")}` : head;
}

const noteResult = z.object({ noted: z.literal(true), text: z.string() });
const searchResult = z.object({
  query: z.string(),
  results: z.array(z.object({ role: z.string(), snippet: z.string(), at: z.string() })),
});

function summarizeSearch(result: z.infer<typeof searchResult>): string {
  if (result.results.length === 0) {
    return `I found nothing earlier in this workstream about “${result.query}”.`;
  }
  return [
    `I found ${plural(result.results.length, "earlier message")} about “${result.query}”:`,
    "",
    ...result.results.map(
      (hit) =>
        `- ${hit.role === "user" ? "you" : "the agent"}, ${hit.at.slice(0, 10)}: ${hit.snippet}`,
    ),
  ].join("\n");
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

function summarizeRemember(result: z.infer<typeof rememberResult>): string {
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

function summarizeRecall(result: z.infer<typeof recallResult>): string {
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
const sentResult = z.object({ sent: z.literal(true), title: z.string() });

const consultResult = z.object({ specialist: z.string(), answer: z.string() });

/** The lead's answer after a consultation: it quotes what the specialist said. */
function summarizeConsultation(result: z.infer<typeof consultResult>): string {
  const answer = result.answer.trim();
  if (!answer) return `I asked ${result.specialist}, but they had nothing to add.`;
  const lines = answer.split("\n").filter((line) => line.trim().length > 0);
  const quoted = lines.slice(0, 6).map((line) => `> ${line}`);
  const more = lines.length > 6 ? [">", "> …"] : [];
  return [
    `I asked ${result.specialist}. Here is what they said:`,
    "",
    ...quoted,
    ...more,
    "",
    `That is ${result.specialist}'s view; tell me if you want me to act on it.`,
  ].join("\n");
}

/** A plain-words report of a context tool's result; undefined for anything else. */
export function summarizeContextResult(toolName: string, value: unknown): string | undefined {
  if (toolName === "read_attachment") return summarizeReadAttachment(value);
  if (toolName === "update_workstream_state") {
    const parsed = stateResult.safeParse(value);
    return parsed.success ? summarizeState(parsed.data) : undefined;
  }
  if (toolName === "update_plan") {
    const parsed = planResult.safeParse(value);
    return parsed.success ? summarizePlan(parsed.data) : undefined;
  }
  if (toolName === "add_memory_note") {
    const parsed = noteResult.safeParse(value);
    return parsed.success
      ? `I added this to the workstream's memory block: “${parsed.data.text}”`
      : undefined;
  }
  if (toolName === "remember") {
    const parsed = rememberResult.safeParse(value);
    return parsed.success ? summarizeRemember(parsed.data) : undefined;
  }
  if (toolName === "recall") {
    const parsed = recallResult.safeParse(value);
    return parsed.success ? summarizeRecall(parsed.data) : undefined;
  }
  if (toolName === "send_message") {
    const parsed = sentResult.safeParse(value);
    return parsed.success ? `I sent the message to “${parsed.data.title}”.` : undefined;
  }
  if (toolName === "consult_specialist") {
    const parsed = consultResult.safeParse(value);
    return parsed.success ? summarizeConsultation(parsed.data) : undefined;
  }
  if (toolName === "search_history") {
    const parsed = searchResult.safeParse(value);
    return parsed.success ? summarizeSearch(parsed.data) : undefined;
  }
  return undefined;
}
