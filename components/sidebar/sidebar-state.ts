// The sidebar's lists as one reducer: server data first, then live changes merged in. Pure, so
// the merge rules (which section a workstream belongs to, the group order, archived rows while
// the toggle is off, one activity entry per workstream) are unit-tested.
import type { ActivityEntry, WorkstreamSummary } from "@/lib/workstreams/types";

export const ACTIVITY_LIMIT = 8;

export type SidebarState = {
  onboarding: "onboarding" | "completed";
  direct: WorkstreamSummary[];
  core: WorkstreamSummary[];
  groups: WorkstreamSummary[];
  hasMore: boolean;
  page: number;
  showArchived: boolean;
  activity: ActivityEntry[];
};

export type SidebarAction =
  | { type: "upsert"; workstream: WorkstreamSummary }
  | { type: "remove"; workstreamId: string }
  | { type: "activity"; entry: ActivityEntry }
  | { type: "onboarding"; state: "onboarding" | "completed" }
  | {
      type: "groups";
      workstreams: WorkstreamSummary[];
      hasMore: boolean;
      page: number;
      append: boolean;
    }
  | { type: "showArchived"; value: boolean }
  | { type: "reset"; state: SidebarState };

function sectionOf(workstream: WorkstreamSummary): "direct" | "core" | "groups" {
  if (workstream.mode === "direct") return "direct";
  return workstream.core ? "core" : "groups";
}

/** Newest activity first, ties by id so the order is stable. */
export function byActivity(a: WorkstreamSummary, b: WorkstreamSummary): number {
  return b.lastActivityAt.localeCompare(a.lastActivityAt) || b.id.localeCompare(a.id);
}

function replaceOrAdd(list: WorkstreamSummary[], workstream: WorkstreamSummary) {
  const index = list.findIndex((item) => item.id === workstream.id);
  if (index < 0) return [...list, workstream];
  const next = [...list];
  next[index] = workstream;
  return next;
}

function upsert(state: SidebarState, workstream: WorkstreamSummary): SidebarState {
  const section = sectionOf(workstream);
  if (section !== "groups") {
    return { ...state, [section]: replaceOrAdd(state[section], workstream) };
  }
  const hidden = workstream.status === "archived" && !state.showArchived;
  const without = state.groups.filter((item) => item.id !== workstream.id);
  if (hidden) return { ...state, groups: without };
  return { ...state, groups: [...without, workstream].sort(byActivity) };
}

function touch(list: WorkstreamSummary[], id: string, at: string) {
  return list.map((item) =>
    item.id === id && item.lastActivityAt < at ? { ...item, lastActivityAt: at } : item,
  );
}

export function sidebarReducer(state: SidebarState, action: SidebarAction): SidebarState {
  switch (action.type) {
    case "upsert":
      return upsert(state, action.workstream);
    case "remove": {
      const keep = (item: { id: string }) => item.id !== action.workstreamId;
      return {
        ...state,
        direct: state.direct.filter(keep),
        core: state.core.filter(keep),
        groups: state.groups.filter(keep),
        activity: state.activity.filter((entry) => entry.workstreamId !== action.workstreamId),
      };
    }
    case "activity": {
      const { entry } = action;
      const at = entry.occurredAt;
      // Two runs of one workstream may publish out of order: the newer turn's line stays.
      const shown = state.activity.find((item) => item.workstreamId === entry.workstreamId);
      if (shown && shown.occurredAt > at) return state;
      return {
        ...state,
        activity: [
          entry,
          ...state.activity.filter((item) => item.workstreamId !== entry.workstreamId),
        ]
          .sort((a, b) => b.occurredAt.localeCompare(a.occurredAt))
          .slice(0, ACTIVITY_LIMIT),
        direct: touch(state.direct, entry.workstreamId, at),
        core: touch(state.core, entry.workstreamId, at),
        groups: touch(state.groups, entry.workstreamId, at).sort(byActivity),
      };
    }
    case "onboarding":
      return { ...state, onboarding: action.state };
    case "groups": {
      const merged = action.append
        ? [
            ...state.groups,
            ...action.workstreams.filter((item) => !state.groups.some((g) => g.id === item.id)),
          ]
        : action.workstreams;
      return { ...state, groups: merged, hasMore: action.hasMore, page: action.page };
    }
    case "showArchived":
      return { ...state, showArchived: action.value };
    case "reset":
      return action.state;
  }
}

/** How many recent-activity entries the sidebar shows. */
export const SHOWN_ACTIVITY = 3;

/**
 * The recent-activity entries worth showing: the newest few whose workstream is not already a
 * row of the group list below them (that row shows its own time; the entry would repeat it).
 */
export function shownActivity(state: Pick<SidebarState, "activity" | "groups">): ActivityEntry[] {
  const listed = new Set(state.groups.map((workstream) => workstream.id));
  return state.activity.filter((entry) => !listed.has(entry.workstreamId)).slice(0, SHOWN_ACTIVITY);
}
