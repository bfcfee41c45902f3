// The full turn: the same plain turn, in a workstream that keeps an active execution plan, a
// state with every list filled and a memory block with its summary and notes. The context is
// seeded through the agent's own tools (the offline model's `[tool:NAME:JSON]` form), as a
// member's conversation would build it; the timed turns then run exactly like the plain ones.
import type { ContextView } from "../../lib/state/schema";
import { type Summary, summarize } from "../lib/stats";
import { runTurn, type TurnTarget } from "../lib/turns";

const PLAN = {
  title: "Migrate billing to the new ledger",
  status: "active",
  steps: [
    { title: "Inventory the invoice and refund flows", status: "done" },
    { title: "Dual-write invoices to the new ledger", status: "done" },
    { title: "Load test the ledger at peak volume", status: "in_progress" },
    { title: "Write the rollback runbook", status: "pending" },
    { title: "Cut over refunds", status: "pending" },
    { title: "Cut over invoices", status: "pending" },
    { title: "Retire the old ledger", status: "pending" },
  ],
};

const items = (prefix: string, count: number) =>
  Array.from(
    { length: count },
    (_, i) => `${prefix} ${i + 1}: keep the ledger consistent for region ${i + 1}`,
  );

const STATE = {
  activeConstraints: { add: items("Constraint", 6).map((text) => ({ text })) },
  keyDecisions: {
    add: items("Decision", 8).map((text, i) => ({
      text,
      rationale: "The load test and the finance review agreed on it",
      confidence: 0.5 + i / 20,
    })),
  },
  tasks: { add: items("Task", 10).map((text, i) => ({ text, status: i < 3 ? "done" : "open" })) },
  openQuestions: { add: items("Question", 5).map((text) => ({ text })) },
  risks: { add: items("Risk", 5).map((text) => ({ text })) },
  artifacts: { add: items("Artifact", 10).map((text) => ({ text })) },
};

const NOTES = Array.from(
  { length: 15 },
  (_, i) => `Note ${i + 1}: the finance team reviews ledger batch ${i + 1} before it ships`,
);

/** The messages that build the context, each one turn. */
export const FULL_TURN_SEED: readonly string[] = [
  `[tool:update_plan:${JSON.stringify(PLAN)}]`,
  `[tool:update_workstream_state:${JSON.stringify(STATE)}]`,
  ...NOTES.map((text) => `[tool:add_memory_note:${JSON.stringify({ text })}]`),
];

export type SeededContext = {
  planSteps: number;
  stateItems: number;
  memoryEntries: number;
  memorySummary: boolean;
  /** Organization memories every turn of the workstream's member may use. */
  memories: number;
};

/** Memories the full turn's member sees (issue 14: the full turn holds 1,000). */
export const FULL_TURN_MEMORIES = 1_000;

const TEAMS = ["finance", "platform", "support", "sales", "legal", "data", "design", "ops"];
const THINGS = ["invoices", "refunds", "ledgers", "dashboards", "contracts", "exports", "alerts"];
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];

/** A varied fact: full-text search has words to tell them apart, as it would in a real team. */
function memoryText(i: number): string {
  const team = TEAMS[i % TEAMS.length];
  const thing = THINGS[(i * 7) % THINGS.length];
  const day = DAYS[(i * 3) % DAYS.length];
  return `Fact ${i + 1}: the ${team} team reviews ${thing} every ${day} before batch ${i + 1}`;
}

/**
 * Organization memories through the admin route, a few requests at a time; importance 1 to 10, so some are pre-seeded into every turn.
 */
async function seedMemories(target: TurnTarget): Promise<number> {
  let added = 0;
  // Every bench user signed up on its own, so each owns an organization of its own.
  for (const user of target.users) {
    for (let start = 0; start < FULL_TURN_MEMORIES; start += 10) {
      const batch = Array.from({ length: 10 }, (_, k) => start + k);
      const answers = await Promise.all(
        batch.map((i) =>
          user.client.json("POST", "/api/admin/memories", {
            text: memoryText(i),
            importance: (i % 10) + 1,
          }),
        ),
      );
      const failed = answers.find((answer) => answer.status >= 300);
      if (failed) throw new Error(`seeding memories failed with ${failed.status}`);
      added += batch.length;
    }
  }
  return added;
}

async function contextOf(target: TurnTarget, index: number): Promise<ContextView | null> {
  const user = target.users[index];
  if (!user) return null;
  const response = await user.client.json<ContextView>(
    "GET",
    `/api/workstreams/${user.workstreamId}/context`,
  );
  return response.status === 200 ? response.body : null;
}

/** Seeds every user's workstream; waits (up to 20 s) for the memory block's summary job. */
export async function seedFullContext(target: TurnTarget): Promise<SeededContext> {
  for (let index = 0; index < target.users.length; index++) {
    for (const text of FULL_TURN_SEED) {
      const turn = await runTurn(target, index, text, 60_000);
      if (turn.error) throw new Error(`seeding the full turn failed: ${turn.error}`);
    }
  }
  const memories = await seedMemories(target);
  const deadline = Date.now() + 20_000;
  let view = await contextOf(target, 0);
  while (view && !view.memoryBlock.summary && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    view = await contextOf(target, 0);
  }
  if (!view) throw new Error("the seeded workstream's context could not be read");
  return {
    planSteps: view.plan?.steps.length ?? 0,
    stateItems: Object.values(view.state).reduce((sum, list) => sum + list.length, 0),
    memoryEntries: view.memoryBlock.entries.length,
    memorySummary: view.memoryBlock.summary !== null,
    memories,
  };
}

/** The context builder's own time, as each turn recorded it: one more turn per sample. */
export async function sampleComposeMs(
  target: TurnTarget,
  texts: readonly string[],
  samples: number,
): Promise<{ composeMs: Summary; sections: ContextView["lastTurn"] }> {
  const values: number[] = [];
  let last: ContextView["lastTurn"] = null;
  for (let i = 0; i < samples; i++) {
    const index = i % target.users.length;
    await runTurn(target, index, texts[i % texts.length] ?? "hello", 60_000);
    const view = await contextOf(target, index);
    if (view?.lastTurn) {
      values.push(view.lastTurn.context.composeMs);
      last = view.lastTurn;
    }
  }
  return { composeMs: summarize(values), sections: last };
}
