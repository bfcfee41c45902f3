// The shapes of what a workstream keeps beyond its messages: its structured state (the lists and
// their limits), a delta to it, its execution plan and its memory block, plus the view of all of
// it that the context route returns. Parsed with zod wherever they cross an edge (a request, a
// tool call, a row read back from jsonb).
import { z } from "zod";

/** The longest a state item, plan step or memory note may be, in characters. */
export const STATE_ITEM_MAX = 500;

/** How many items each list of the state may hold. */
export const STATE_LIMITS = {
  currentPlan: 1,
  activeConstraints: 6,
  keyDecisions: 8,
  tasks: 10,
  openQuestions: 5,
  risks: 5,
  artifacts: 10,
  agentContributions: 6,
} as const;

export type StateListName = keyof typeof STATE_LIMITS;
export const STATE_LISTS = Object.keys(STATE_LIMITS) as StateListName[];

const itemText = z.string().trim().min(1).max(STATE_ITEM_MAX);
const itemId = z.string().min(1).max(64);

export const TASK_STATUSES = ["open", "in_progress", "done"] as const;

/** The fields a new item of each list carries, besides the id the merge gives it. */
export const NEW_ITEM = {
  currentPlan: z.strictObject({ text: itemText }),
  activeConstraints: z.strictObject({
    text: itemText,
    /** A binding constraint is agreed; a candidate one is proposed. */
    binding: z.boolean().default(true),
  }),
  keyDecisions: z.strictObject({
    text: itemText,
    rationale: z.string().trim().max(STATE_ITEM_MAX).default(""),
    /** How sure the decision is, 0 to 1. */
    confidence: z.number().min(0).max(1).default(0.7),
  }),
  tasks: z.strictObject({ text: itemText, status: z.enum(TASK_STATUSES).default("open") }),
  openQuestions: z.strictObject({ text: itemText }),
  risks: z.strictObject({ text: itemText }),
  artifacts: z.strictObject({ text: itemText }),
  agentContributions: z.strictObject({
    text: itemText,
    agentId: z.string().trim().min(1).max(64).default("member"),
  }),
} as const;

type NewItems = { [K in StateListName]: z.infer<(typeof NEW_ITEM)[K]> };
/** A stored item: its fields, an id, and when it was added (eviction reads "oldest"). */
export type StateItem<K extends StateListName> = NewItems[K] & { id: string; addedAt: string };
export type WorkstreamState = { [K in StateListName]: StateItem<K>[] };

const stored = <S extends z.core.$ZodShape>(item: z.ZodObject<S, z.core.$strict>) =>
  z.array(item.extend({ id: itemId, addedAt: z.string() })).default([]);

/** A stored state read back from jsonb: missing lists are empty, unknown keys are dropped. */
export const workstreamStateSchema = z.object({
  currentPlan: stored(NEW_ITEM.currentPlan),
  activeConstraints: stored(NEW_ITEM.activeConstraints),
  keyDecisions: stored(NEW_ITEM.keyDecisions),
  tasks: stored(NEW_ITEM.tasks),
  openQuestions: stored(NEW_ITEM.openQuestions),
  risks: stored(NEW_ITEM.risks),
  artifacts: stored(NEW_ITEM.artifacts),
  agentContributions: stored(NEW_ITEM.agentContributions),
});

export function emptyState(): WorkstreamState {
  return Object.fromEntries(STATE_LISTS.map((list) => [list, []])) as unknown as WorkstreamState;
}

/**
 * An update names the fields it changes and nothing else: the defaults of a new item are left out
 * (zod applies a default even under `.partial()`, which would reset an omitted confidence).
 */
const itemUpdate = <S extends z.core.$ZodShape>(item: z.ZodObject<S, z.core.$strict>) =>
  z.strictObject({
    ...Object.fromEntries(
      Object.entries(item.shape).map(([field, schema]) => [
        field,
        z.optional(schema instanceof z.ZodDefault ? schema.unwrap() : schema),
      ]),
    ),
    id: itemId,
  }) as unknown as z.ZodType<Partial<z.output<typeof item>> & { id: string }>;

/** Changes to one list: new items, partial updates by id, removals by id. */
const changes = <S extends z.core.$ZodShape>(item: z.ZodObject<S, z.core.$strict>) =>
  z
    .strictObject({
      add: z.array(item).max(20).optional(),
      update: z.array(itemUpdate(item)).max(20).optional(),
      remove: z.array(itemId).max(20).optional(),
    })
    .optional();

export const workstreamStateDeltaSchema = z.strictObject({
  currentPlan: changes(NEW_ITEM.currentPlan),
  activeConstraints: changes(NEW_ITEM.activeConstraints),
  keyDecisions: changes(NEW_ITEM.keyDecisions),
  tasks: changes(NEW_ITEM.tasks),
  openQuestions: changes(NEW_ITEM.openQuestions),
  risks: changes(NEW_ITEM.risks),
  artifacts: changes(NEW_ITEM.artifacts),
  agentContributions: changes(NEW_ITEM.agentContributions),
});
export type WorkstreamStateDelta = z.infer<typeof workstreamStateDeltaSchema>;

/** An item a merge pushed out to stay within a list's limit, and the rule that chose it. */
export type Eviction = { list: StateListName; id: string; text: string; rule: string };

export const PLAN_STEP_STATUSES = ["pending", "in_progress", "done", "skipped", "blocked"] as const;
export const PLAN_STATUSES = ["active", "completed", "abandoned"] as const;
export const PLAN_MAX_STEPS = 20;

export const planStepSchema = z.object({
  id: itemId,
  title: itemText,
  status: z.enum(PLAN_STEP_STATUSES),
});
export const executionPlanSchema = z.object({
  id: itemId,
  title: itemText,
  status: z.enum(PLAN_STATUSES),
  steps: z.array(planStepSchema).max(PLAN_MAX_STEPS),
  updatedAt: z.string(),
});
export type ExecutionPlan = z.infer<typeof executionPlanSchema>;

/** What `update_plan` takes: the whole plan as it should now read (steps in order). */
// The descriptions are what the model reads of each field (the tool's input is this schema).
export const planUpdateSchema = z.strictObject({
  title: itemText.optional().describe('Needed to start one, e.g. "Move the office"'),
  status: z.enum(PLAN_STATUSES).optional().describe('e.g. "completed"; null keeps it'),
  steps: z
    .array(
      z.strictObject({
        title: itemText.describe('e.g. "Book the movers"'),
        status: z
          .enum(PLAN_STEP_STATUSES)
          .default("pending")
          .describe('e.g. "done"; null for pending'),
      }),
    )
    .max(PLAN_MAX_STEPS)
    .optional()
    .describe("Every step in order; null keeps them"),
});
export type PlanUpdate = z.infer<typeof planUpdateSchema>;

/** The memory block: at this many entries, the oldest MEMORY_BLOCK_FOLD become one summary. */
export const MEMORY_BLOCK_TRIGGER = 15;
export const MEMORY_BLOCK_FOLD = 10;

export type MemoryBlockEntry = { id: string; role: string; text: string; createdAt: string };
export type MemoryBlockSummary = { text: string; entries: number; at: string };

/** One section of a turn's assembled context, as recorded for "what the agent saw". */
export type ContextSectionRecord = {
  name: ContextSectionName;
  tokens: number;
  budget: number;
  /** How many items (messages, memories, list entries) it held, and how many were cut. */
  items: number;
  cut: number;
};
export const CONTEXT_SECTIONS = [
  "instructions",
  "tools",
  "compactionSummary",
  "topMemories",
  "retrievedMemories",
  "executionPlan",
  "workstreamState",
  "memoryBlock",
  "extraSections",
  "uploads",
  "history",
] as const;
export type ContextSectionName = (typeof CONTEXT_SECTIONS)[number];

/** What a turn's context held: written with the turn's end, read by the panel. */
export type ContextRecord = {
  model: string;
  /** The model's window, the tokens kept back for its answer, and what the request came to. */
  window: number;
  reservedOutput: number;
  total: number;
  sections: ContextSectionRecord[];
  /**
   * The memories the request held, by section (ids only: the record stays free of content).
   * Absent in records written before memories existed.
   */
  memoryIds?: { top: string[]; retrieved: string[] };
  /** How long assembling it took, in milliseconds. */
  composeMs: number;
  /**
   * How long resolving and re-signing the history's attachments took, in ms (before the builder
   * ran). Absent when the history carried none, and in records written before attachments.
   */
  attachmentsMs?: number;
};

/** GET /api/workstreams/:id/context: everything the panel shows. Owner only. */
export type ContextView = {
  workstreamId: string;
  version: number;
  state: WorkstreamState;
  plan: ExecutionPlan | null;
  lastEvictions: Eviction[];
  memoryBlock: { summary: MemoryBlockSummary | null; entries: MemoryBlockEntry[] };
  lastTurn: {
    turnId: string;
    at: string;
    context: ContextRecord;
    /** The memories the last turn's context held (pre-seeded, then retrieved), as they read now. */
    memories: UsedMemory[];
  } | null;
};

/** A memory a turn used, for the owner's context panel. */
export type UsedMemory = {
  id: string;
  text: string;
  scope: "member" | "agent" | "organization";
  section: "top" | "retrieved";
};
