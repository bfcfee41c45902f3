// Applying a WorkstreamStateDelta to a WorkstreamState: the one merge every writer uses (the
// member's own edits, the agent's update_workstream_state tool, compaction). Pure: it reads
// nothing, writes nothing and returns a new state; the caller stores it (lib/state/store.ts).
import { AppError } from "@/lib/kernel/errors";
import {
  type Eviction,
  STATE_LIMITS,
  STATE_LISTS,
  type StateItem,
  type StateListName,
  type WorkstreamState,
  type WorkstreamStateDelta,
} from "./schema";

/**
 * What a list over its limit gives up, in evict mode. Candidates are the items the list held
 * before this delta; the delta's own new items go only when the delta alone adds more than the
 * limit, and then the newest N of them are kept.
 *
 * | list               | evicted first                                                    |
 * | ------------------ | ---------------------------------------------------------------- |
 * | currentPlan        | the older plan text (a new plan replaces it)                     |
 * | activeConstraints  | candidate (binding=false) constraints, oldest first; then binding |
 * | keyDecisions       | the lowest confidence, ties oldest first                         |
 * | tasks              | done tasks oldest first; then open and in-progress, oldest first |
 * | openQuestions      | oldest first                                                     |
 * | risks              | oldest first                                                     |
 * | artifacts          | oldest first                                                     |
 * | agentContributions | oldest first                                                     |
 *
 * "Oldest" is `addedAt`, then the position in the list. The rule's words travel with each
 * eviction so the panel can say why an item left.
 */
export const EVICTION_RULES: Record<StateListName, string> = {
  currentPlan: "a newer plan replaced it",
  activeConstraints: "candidate constraints go first, then binding ones, oldest first",
  keyDecisions: "the lowest-confidence decision goes first, ties oldest first",
  tasks: "done tasks go first, then open ones, oldest first",
  openQuestions: "oldest first",
  risks: "oldest first",
  artifacts: "oldest first",
  agentContributions: "oldest first",
};

/** Tagged with the rule when the delta alone held more new items than the list may keep. */
const OVERFULL_DELTA_RULE = "this change added more items than the list holds; the newest stay";

export type MergeMode = "evict" | "refuse";

export type MergeOptions = {
  /** "evict": a model's or compaction's merge; "refuse": a member's own edit. */
  mode: MergeMode;
  /** ISO time stamped on new items as `addedAt`. */
  now: string;
  newId: (list: StateListName) => string;
};

export type StateItemRef = { list: StateListName; id: string; text: string };

export type MergeResult = {
  state: WorkstreamState;
  evicted: Eviction[];
  /** The items this delta added that the state now holds, with the ids they were given. */
  added: StateItemRef[];
  /** The lists this delta touched (added to, updated, removed from, or evicted from). */
  changed: StateListName[];
};

/** A member's edit would take a list past its limit. */
export class StateLimitError extends AppError {
  readonly list: StateListName;
  constructor(list: StateListName) {
    super("limit:state", { details: { list, limit: STATE_LIMITS[list] } });
    this.list = list;
  }
}

/** An update or removal named an id the list does not hold. */
export class UnknownStateItemError extends AppError {
  readonly list: StateListName;
  readonly id: string;
  constructor(list: StateListName, id: string) {
    super("bad_request:validation", { details: { list, id, reason: "unknown_id" } });
    this.list = list;
    this.id = id;
  }
}

type AnyItem = StateItem<StateListName>;

/** Lower sorts first = evicted first. Each rule ends with age (the caller breaks ties by index). */
const EVICTION_ORDER: Partial<Record<StateListName, (item: AnyItem) => number>> = {
  activeConstraints: (item) => ("binding" in item && item.binding ? 1 : 0),
  keyDecisions: (item) => ("confidence" in item ? item.confidence : 0),
  tasks: (item) => ("status" in item && item.status === "done" ? 0 : 1),
};

export function mergeState(
  state: WorkstreamState,
  delta: WorkstreamStateDelta,
  options: MergeOptions,
): MergeResult {
  const next = { ...state } as Record<StateListName, AnyItem[]>;
  const evicted: Eviction[] = [];
  const added: StateItemRef[] = [];
  const changed: StateListName[] = [];
  for (const list of STATE_LISTS) {
    const change = delta[list];
    if (!change) continue;
    const {
      items,
      added: fresh,
      touched,
    } = applyListDelta(list, state[list] as AnyItem[], change, options);
    if (options.mode === "refuse" && items.length > STATE_LIMITS[list]) {
      throw new StateLimitError(list);
    }
    const kept = items.length > STATE_LIMITS[list] ? evict(list, items, fresh, evicted) : items;
    next[list] = kept;
    for (const item of kept) {
      if (fresh.has(item.id)) added.push({ list, id: item.id, text: item.text });
    }
    if (touched) changed.push(list);
  }
  return { state: next as WorkstreamState, evicted, added, changed };
}

type ListChange = NonNullable<WorkstreamStateDelta[StateListName]>;

function applyListDelta(
  list: StateListName,
  current: AnyItem[],
  change: ListChange,
  options: MergeOptions,
): { items: AnyItem[]; added: Set<string>; touched: boolean } {
  const removals = new Set(change.remove ?? []);
  for (const id of removals) {
    if (!current.some((item) => item.id === id)) throw new UnknownStateItemError(list, id);
  }
  let items = current.filter((item) => !removals.has(item.id));
  for (const update of change.update ?? []) {
    const index = items.findIndex((item) => item.id === update.id);
    const existing = items[index];
    if (!existing) throw new UnknownStateItemError(list, update.id);
    const fields = Object.fromEntries(
      Object.entries(update).filter(([, value]) => value !== undefined),
    );
    const updated = { ...existing, ...fields, id: existing.id } as AnyItem;
    items = items.map((item, at) => (at === index ? updated : item));
  }
  const added = new Set<string>();
  for (const fields of change.add ?? []) {
    const id = options.newId(list);
    added.add(id);
    items.push({ ...fields, id, addedAt: options.now } as AnyItem);
  }
  const touched = removals.size > 0 || (change.update?.length ?? 0) > 0 || added.size > 0;
  return { items, added, touched };
}

/** Drops items by the list's rule until it fits; records each one dropped in `evicted`. */
function evict(
  list: StateListName,
  items: AnyItem[],
  added: Set<string>,
  evicted: Eviction[],
): AnyItem[] {
  const excess = items.length - STATE_LIMITS[list];
  const order = EVICTION_ORDER[list] ?? (() => 0);
  const candidates = items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => !added.has(item.id))
    .sort(
      (a, b) =>
        order(a.item) - order(b.item) ||
        a.item.addedAt.localeCompare(b.item.addedAt) ||
        a.index - b.index,
    );
  const gone = new Map<string, string>();
  for (const { item } of candidates.slice(0, excess)) gone.set(item.id, EVICTION_RULES[list]);
  // Only when the old items are not enough does the delta lose its own earliest additions.
  const newItems = items.filter((item) => added.has(item.id));
  for (const item of newItems.slice(0, Math.max(0, excess - candidates.length))) {
    gone.set(item.id, OVERFULL_DELTA_RULE);
  }
  for (const item of items) {
    const rule = gone.get(item.id);
    if (rule) evicted.push({ list, id: item.id, text: item.text, rule });
  }
  return items.filter((item) => !gone.has(item.id));
}
