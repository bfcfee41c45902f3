import { describe, expect, it } from "vitest";
import type { WorkstreamSummary } from "@/lib/workstreams/types";
import {
  ACTIVITY_LIMIT,
  SHOWN_ACTIVITY,
  type SidebarState,
  shownActivity,
  sidebarReducer,
} from "./sidebar-state";

function ws(id: string, overrides: Partial<WorkstreamSummary> = {}): WorkstreamSummary {
  return {
    id,
    title: id,
    mode: "group",
    core: false,
    coreType: null,
    agentId: "chief",
    status: "regular",
    isRunning: false,
    isCompacting: false,
    createdAt: "2026-01-01T00:00:00.000Z",
    lastActivityAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

const empty: SidebarState = {
  onboarding: "onboarding",
  direct: [],
  core: [],
  groups: [],
  hasMore: false,
  page: 1,
  showArchived: false,
  activity: [],
};

describe("sidebarReducer", () => {
  it("W5 files a live workstream under direct, core or groups, newest group first", () => {
    let state = sidebarReducer(empty, { type: "upsert", workstream: ws("d", { mode: "direct" }) });
    state = sidebarReducer(state, { type: "upsert", workstream: ws("c", { core: true }) });
    state = sidebarReducer(state, { type: "upsert", workstream: ws("old") });
    state = sidebarReducer(state, {
      type: "upsert",
      workstream: ws("new", { lastActivityAt: "2026-02-01T00:00:00.000Z" }),
    });
    expect(state.direct.map((item) => item.id)).toEqual(["d"]);
    expect(state.core.map((item) => item.id)).toEqual(["c"]);
    expect(state.groups.map((item) => item.id)).toEqual(["new", "old"]);
  });

  it("W11 drops an archived group unless archived ones are shown, and removes deleted ones", () => {
    const start = { ...empty, groups: [ws("a"), ws("b")] };
    const archived = sidebarReducer(start, {
      type: "upsert",
      workstream: ws("a", { status: "archived" }),
    });
    expect(archived.groups.map((item) => item.id)).toEqual(["b"]);
    const shown = sidebarReducer(
      { ...start, showArchived: true },
      { type: "upsert", workstream: ws("a", { status: "archived" }) },
    );
    expect(shown.groups.find((item) => item.id === "a")?.status).toBe("archived");
    expect(sidebarReducer(start, { type: "remove", workstreamId: "b" }).groups).toHaveLength(1);
  });

  it("W1 keeps one activity entry per workstream, newest first, and moves its row up", () => {
    let state: SidebarState = { ...empty, groups: [ws("x"), ws("y")] };
    for (let i = 0; i < ACTIVITY_LIMIT + 2; i++) {
      state = sidebarReducer(state, {
        type: "activity",
        entry: {
          workstreamId: i % 2 ? "y" : `w${i}`,
          title: "t",
          mode: "group",
          core: false,
          summary: `s${i}`,
          occurredAt: `2026-03-01T00:00:${String(i).padStart(2, "0")}.000Z`,
        },
      });
    }
    expect(state.activity.filter((entry) => entry.workstreamId === "y")).toHaveLength(1);
    expect(state.activity[0]?.summary).toBe(`s${ACTIVITY_LIMIT + 1}`);
    expect(state.activity.length).toBeLessThanOrEqual(ACTIVITY_LIMIT);
    expect(state.groups[0]?.id).toBe("y");
  });

  it("W1 a line of an older turn arriving late does not replace the newer turn's line", () => {
    const line = (summary: string, second: number) => ({
      type: "activity" as const,
      entry: {
        workstreamId: "x",
        title: "t",
        mode: "group" as const,
        core: false,
        summary,
        occurredAt: `2026-03-01T00:00:${String(second).padStart(2, "0")}.000Z`,
      },
    });
    let state = sidebarReducer({ ...empty, groups: [ws("x")] }, line("newer", 20));
    state = sidebarReducer(state, line("older", 10));
    expect(state.activity.map((entry) => entry.summary)).toEqual(["newer"]);
    state = sidebarReducer(state, line("newest", 30));
    expect(state.activity.map((entry) => entry.summary)).toEqual(["newest"]);
  });

  it("W6 appends a further page without duplicating rows a live event already added", () => {
    const state = { ...empty, groups: [ws("a"), ws("b")] };
    const next = sidebarReducer(state, {
      type: "groups",
      workstreams: [ws("b"), ws("c")],
      hasMore: false,
      page: 2,
      append: true,
    });
    expect(next.groups.map((item) => item.id)).toEqual(["a", "b", "c"]);
    expect([next.page, next.hasMore]).toEqual([2, false]);
  });
});

describe("shownActivity", () => {
  const entry = (workstreamId: string, second: number) => ({
    workstreamId,
    title: workstreamId,
    mode: "group" as const,
    core: false,
    summary: "s",
    occurredAt: `2026-03-01T00:00:${String(second).padStart(2, "0")}.000Z`,
  });

  it("UI10 shows at most three entries and none for a workstream listed below", () => {
    const state = {
      groups: [ws("listed")],
      activity: [entry("a", 9), entry("listed", 8), entry("b", 7), entry("c", 6), entry("d", 5)],
    };
    const shown = shownActivity(state);
    expect(shown.map((item) => item.workstreamId)).toEqual(["a", "b", "c"]);
    expect(shown).toHaveLength(SHOWN_ACTIVITY);
  });
});
