// PLACEHOLDER until the state domain lands: renders the state and the plan as prompt sections.
import type { ExecutionPlan, WorkstreamState } from "./schema";
import { STATE_LISTS } from "./schema";

export function renderWorkstreamState(
  state: WorkstreamState,
  { omitCurrentPlan }: { omitCurrentPlan: boolean },
): string {
  const lines: string[] = [];
  for (const list of STATE_LISTS) {
    if (omitCurrentPlan && list === "currentPlan") continue;
    const items = state[list];
    if (!items.length) continue;
    lines.push(`<${list}>`);
    for (const item of items) lines.push(`- (${item.id}) ${item.text}`);
    lines.push(`</${list}>`);
  }
  return lines.length ? `<workstream-state>\n${lines.join("\n")}\n</workstream-state>` : "";
}

export function renderExecutionPlan(plan: ExecutionPlan | null): string {
  if (!plan || plan.status !== "active") return "";
  const steps = plan.steps.map((step) => `- [${step.status}] (${step.id}) ${step.title}`);
  return `<execution-plan-state title="${plan.title}">\n${steps.join("\n")}\n</execution-plan-state>`;
}
