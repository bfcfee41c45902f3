import { describe, expect, it } from "vitest";
import type { ContextView } from "@/lib/state/schema";
import { emptyState } from "@/lib/state/schema";
import { contextReducer } from "./use-workstream-context";

function view(version: number, text: string): ContextView {
  const state = emptyState();
  state.risks.push({ id: "risk_1", text, addedAt: "2026-01-01T00:00:00.000Z" });
  return {
    workstreamId: "ws_1",
    version,
    state,
    plan: null,
    lastEvictions: [],
    memoryBlock: {
      summary: null,
      entries: [{ id: "m1", role: "chief", text: "a note", createdAt: "2026-01-01T00:00:00.000Z" }],
    },
    lastTurn: null,
  };
}

const idle = { view: null, error: null, loading: false };

describe("the context panel's reconciliation", () => {
  it("an edit's answer replaces the state it was made against", () => {
    const loaded = contextReducer(idle, { type: "loaded", view: view(3, "old") });
    const written = contextReducer(loaded, {
      type: "state-written",
      write: { version: 4, state: view(4, "new").state, lastEvictions: [] },
    });
    expect(written.view?.version).toBe(4);
    expect(written.view?.state.risks[0]?.text).toBe("new");
  });

  it("a load that started before an edit and answers after it keeps the edited state", () => {
    const edited = contextReducer(idle, { type: "loaded", view: view(4, "edited") });
    const stale = contextReducer(edited, { type: "loaded", view: view(3, "stale") });
    expect(stale.view?.state.risks[0]?.text).toBe("edited");
    expect(stale.view?.version).toBe(4);
  });

  it("an older edit's answer does not undo a newer state", () => {
    const current = contextReducer(idle, { type: "loaded", view: view(5, "current") });
    const late = contextReducer(current, {
      type: "state-written",
      write: { version: 4, state: view(4, "late").state, lastEvictions: [] },
    });
    expect(late.view?.state.risks[0]?.text).toBe("current");
  });

  it("a deleted memory note leaves at once", () => {
    const loaded = contextReducer(idle, { type: "loaded", view: view(1, "x") });
    const removed = contextReducer(loaded, { type: "memory-entry-removed", entryId: "m1" });
    expect(removed.view?.memoryBlock.entries).toEqual([]);
  });
});
