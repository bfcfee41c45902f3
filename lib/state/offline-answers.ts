/**
 * The state's offline answers, registered with the offline model by root/offline-answers.ts: what
 * update_workstream_state and update_plan did, in plain words ("I recorded this in the
 * workstream state: …"), instead of the field dump other tool results get.
 */
import { z } from "zod";

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

export function reportStateUpdate(output: unknown): string | undefined {
  const parsed = stateResult.safeParse(output);
  if (!parsed.success) return undefined;
  const result = parsed.data;
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

export function reportPlanUpdate(output: unknown): string | undefined {
  const parsed = planResult.safeParse(output);
  if (!parsed.success) return undefined;
  const result = parsed.data;
  const steps = result.steps.map(
    (step, index) => `${index + 1}. ${step.title} — ${step.status.replace("_", " ")}`,
  );
  const head =
    result.status === "active"
      ? `I wrote the plan **${result.title}**:`
      : `I marked the plan **${result.title}** as ${result.status}.`;
  return steps.length > 0 && result.status === "active" ? `${head}\n\n${steps.join("\n")}` : head;
}
