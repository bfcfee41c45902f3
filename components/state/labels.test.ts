import { describe, expect, it } from "vitest";
import { CONTEXT_SECTIONS, STATE_LISTS, TASK_STATUSES } from "@/lib/state/schema";
import { CONTEXT_SECTION_ORDER, STATE_LIST_ORDER, TASK_STATUS_ORDER } from "./labels";

describe("the panel's order", () => {
  it("W9 shows the state's lists in the state's own order", () => {
    expect(STATE_LIST_ORDER).toEqual(STATE_LISTS);
    expect(TASK_STATUS_ORDER).toEqual([...TASK_STATUSES]);
  });

  it("M3 lists a turn's context sections in the order they are assembled", () => {
    expect(CONTEXT_SECTION_ORDER).toEqual([...CONTEXT_SECTIONS]);
  });
});
