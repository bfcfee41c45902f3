import { describe, expect, it } from "vitest";
import {
  CONTEXT_SECTIONS,
  type ContextSectionName,
  STATE_LISTS,
  TASK_STATUSES,
} from "@/lib/state/schema";
import { orderedSections, STATE_LIST_ORDER, TASK_STATUS_ORDER } from "./labels";

const record = (name: ContextSectionName) => ({ name, tokens: 1, budget: 1, items: 0, cut: 0 });

describe("the panel's order", () => {
  it("W9 shows the state's lists in the state's own order", () => {
    expect(STATE_LIST_ORDER).toEqual(STATE_LISTS);
    expect(TASK_STATUS_ORDER).toEqual([...TASK_STATUSES]);
  });

  it("M3 lists a turn's context sections in the order they are assembled", () => {
    const recorded = [...CONTEXT_SECTIONS].reverse().map(record);
    const shown = orderedSections(recorded, CONTEXT_SECTIONS).map((section) => section.name);
    expect(shown).toEqual([...CONTEXT_SECTIONS]);
  });

  it("puts a section the server's order does not name last", () => {
    const unknown = { ...record("history"), name: "fromAnotherBuild" as ContextSectionName };
    const shown = orderedSections(
      [unknown, record("history"), record("instructions")],
      CONTEXT_SECTIONS,
    );
    expect(shown.map((section) => section.name)).toEqual([
      "instructions",
      "history",
      "fromAnotherBuild",
    ]);
  });
});
