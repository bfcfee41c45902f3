// The state and the execution plan as the model reads them: `<workstream-state>` and
// `<execution-plan-state>` blocks of one line per item, each with its id so the model can update
// or remove it. The items also come out one by one with a priority, so the context builder can
// cut a section by whole items when it is over its budget.
import type { ExecutionPlan, StateItem, StateListName, WorkstreamState } from "./schema";

/** The tag of each list inside `<workstream-state>`, in the order they are rendered. */
const LIST_TAGS: Record<StateListName, string> = {
  currentPlan: "current-plan",
  activeConstraints: "active-constraints",
  keyDecisions: "key-decisions",
  tasks: "tasks",
  openQuestions: "open-questions",
  risks: "risks",
  artifacts: "artifacts",
  agentContributions: "agent-contributions",
};
const LIST_ORDER = Object.keys(LIST_TAGS) as StateListName[];

/** Member and model text cannot open or close a tag of the prompt. */
export function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export type RenderOptions = {
  /** True while an execution plan is active: the plan, not `currentPlan`, is the source of truth. */
  omitCurrentPlan: boolean;
};

/** One rendered item and how much it matters: the builder drops the lowest `keep` first. */
export type BudgetItem = { list: StateListName; text: string; keep: number };

function renderItem(list: StateListName, item: StateItem<StateListName>): string {
  const head = `- [${escapeText(item.id)}] ${escapeText(item.text)}`;
  if (list === "keyDecisions" && "confidence" in item) {
    const rationale = item.rationale ? ` — because ${escapeText(item.rationale)}` : "";
    return `${head}${rationale} (confidence ${item.confidence.toFixed(2)})`;
  }
  if (list === "tasks" && "status" in item) return `${head} (${item.status})`;
  if (list === "activeConstraints" && "binding" in item) {
    return item.binding ? head : `${head} (candidate)`;
  }
  if (list === "agentContributions" && "agentId" in item) {
    return `${head} (by ${escapeText(item.agentId)})`;
  }
  return head;
}

/**
 * How much an item is worth keeping when the section is cut. The base says what kind of item it
 * is: the current plan and binding constraints first (3 and 2.5), decisions by confidence (2 to
 * 3), open tasks before done ones (2 and 0.5), candidate constraints 1.5, the other lists 1. A
 * small bonus by position (newer items sit later in a list) makes newer items outlast older ones
 * of the same kind; it is below 0.1 so it never reorders kinds.
 */
function keepOf(list: StateListName, item: StateItem<StateListName>, index: number, count: number) {
  const recency = count > 1 ? (0.09 * index) / (count - 1) : 0;
  let base = 1;
  if (list === "currentPlan") base = 3;
  else if (list === "keyDecisions" && "confidence" in item) base = 2 + item.confidence;
  else if (list === "tasks" && "status" in item) base = item.status === "done" ? 0.5 : 2;
  else if (list === "activeConstraints" && "binding" in item) base = item.binding ? 2.5 : 1.5;
  return base + recency;
}

/** Every item of the state, rendered, with its priority (lists in render order). */
export function stateItemsForBudget(state: WorkstreamState, options: RenderOptions): BudgetItem[] {
  return LIST_ORDER.flatMap((list) => {
    if (list === "currentPlan" && options.omitCurrentPlan) return [];
    const items = state[list] as StateItem<StateListName>[];
    return items.map((item, index) => ({
      list,
      text: renderItem(list, item),
      keep: keepOf(list, item, index, items.length),
    }));
  });
}

/** The `<workstream-state>` block from the items left after cutting; empty lists are left out. */
export function renderStateItems(items: readonly BudgetItem[]): string {
  if (items.length === 0) return "";
  const sections = LIST_ORDER.flatMap((list) => {
    const lines = items.filter((item) => item.list === list).map((item) => item.text);
    if (lines.length === 0) return [];
    return [`<${LIST_TAGS[list]}>\n${lines.join("\n")}\n</${LIST_TAGS[list]}>`];
  });
  return `<workstream-state>\n${sections.join("\n")}\n</workstream-state>`;
}

/** The whole state as the model reads it; an empty state renders as "". */
export function renderWorkstreamState(state: WorkstreamState, options: RenderOptions): string {
  return renderStateItems(stateItemsForBudget(state, options));
}

/** One plan step, rendered, with its priority. */
export type PlanBudgetItem = { text: string; keep: number };

/**
 * The steps of an active plan with their priority: the step in progress and blocked ones first,
 * then pending steps (earlier before later, as they come next), then done and skipped ones.
 * Empty when there is no active plan.
 */
export function planItemsForBudget(plan: ExecutionPlan | null): PlanBudgetItem[] {
  if (plan?.status !== "active") return [];
  const count = plan.steps.length;
  return plan.steps.map((step, index) => {
    const order = count > 1 ? (0.09 * (count - 1 - index)) / (count - 1) : 0;
    const base =
      step.status === "in_progress" || step.status === "blocked"
        ? 3
        : step.status === "pending"
          ? 2
          : 1;
    return {
      text: `${index + 1}. [${escapeText(step.id)}] ${escapeText(step.title)} (${step.status})`,
      keep: base + order,
    };
  });
}

/** The `<execution-plan-state>` block from the steps left after cutting. */
export function renderPlanItems(plan: ExecutionPlan | null, steps: readonly PlanBudgetItem[]) {
  if (plan?.status !== "active") return "";
  const lines = steps.map((step) => step.text);
  const body = lines.length > 0 ? `\n${lines.join("\n")}` : "";
  return `<execution-plan-state>\nPlan: ${escapeText(plan.title)} (active)${body}\n</execution-plan-state>`;
}

/** The active plan as the model reads it; "" when there is no active plan. */
export function renderExecutionPlan(plan: ExecutionPlan | null): string {
  return renderPlanItems(plan, planItemsForBudget(plan));
}
