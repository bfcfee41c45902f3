// How the context panel names what the agent keeps: the state's lists, task and plan-step
// statuses and the sections of a turn's context. Keyed by the server's names (type-only imports,
// so a new list or section does not compile until it is named here) and, for the lists and
// statuses, in the server's order. The order of the context's sections comes from the server as
// a prop (`orderedSections`).
import type {
  ContextSectionName,
  ContextSectionRecord,
  PLAN_STEP_STATUSES,
  StateListName,
  TASK_STATUSES,
} from "@/lib/state/schema";

export type ListLabel = {
  /** The list's heading. */
  title: string;
  /** One item, as in "Add a decision" or "Delete this decision?". */
  noun: string;
  article: "a" | "an";
  /** What an empty list says. */
  empty: string;
};

/** The state's lists, in the order the state (and `<workstream-state>`) has them. */
export const STATE_LIST_LABELS = {
  currentPlan: {
    title: "Current plan",
    noun: "plan summary",
    article: "a",
    empty: "No plan summary.",
  },
  activeConstraints: {
    title: "Constraints",
    noun: "constraint",
    article: "a",
    empty: "No constraints.",
  },
  keyDecisions: { title: "Decisions", noun: "decision", article: "a", empty: "No decisions yet." },
  tasks: { title: "Tasks", noun: "task", article: "a", empty: "No tasks." },
  openQuestions: {
    title: "Open questions",
    noun: "open question",
    article: "an",
    empty: "No open questions.",
  },
  risks: { title: "Risks", noun: "risk", article: "a", empty: "No risks noted." },
  artifacts: { title: "Artifacts", noun: "artifact", article: "an", empty: "No artifacts." },
  agentContributions: {
    title: "Agent contributions",
    noun: "contribution",
    article: "a",
    empty: "No contributions.",
  },
} as const satisfies Record<StateListName, ListLabel>;

export const STATE_LIST_ORDER = Object.keys(STATE_LIST_LABELS) as StateListName[];

export const TASK_STATUS_LABELS = {
  open: "Open",
  in_progress: "In progress",
  done: "Done",
} as const satisfies Record<(typeof TASK_STATUSES)[number], string>;

export const TASK_STATUS_ORDER = Object.keys(TASK_STATUS_LABELS) as Array<
  keyof typeof TASK_STATUS_LABELS
>;

export type PlanStepStatus = (typeof PLAN_STEP_STATUSES)[number];

export const PLAN_STEP_LABELS = {
  pending: "Pending",
  in_progress: "In progress",
  done: "Done",
  skipped: "Skipped",
  blocked: "Blocked",
} as const satisfies Record<PlanStepStatus, string>;

/** What the panel calls each section of a turn's context. */
export const CONTEXT_SECTION_LABELS = {
  instructions: "Agent instructions",
  tools: "Tool definitions",
  compactionSummary: "Summary of earlier history",
  topMemories: "Pre-seeded memories",
  retrievedMemories: "Retrieved knowledge",
  executionPlan: "Execution plan",
  workstreamState: "Workstream state",
  memoryBlock: "Memory block",
  extraSections: "Extra instructions",
  uploads: "Upload metadata",
  history: "Conversation history",
} as const satisfies Record<ContextSectionName, string>;

/**
 * The recorded sections in `order`, the server's assembly order; a section it does not name (a
 * record from another build) goes last.
 */
export function orderedSections(
  sections: readonly ContextSectionRecord[],
  order: readonly ContextSectionName[],
): ContextSectionRecord[] {
  const rank = (name: ContextSectionName) => {
    const index = order.indexOf(name);
    return index < 0 ? order.length : index;
  };
  return [...sections].sort((a, b) => rank(a.name) - rank(b.name));
}
