"use client";
// The workstream state's lists, each with its items and what its list adds to them (a decision's
// rationale and confidence, a task's status, a candidate constraint, a contribution's agent). An
// empty list is one short line. Items are edited in place and deleted after a confirmation; a
// list takes new items from its + button.
import {
  CircleCheckIcon,
  CircleDotIcon,
  CircleIcon,
  PencilIcon,
  PlusIcon,
  Trash2Icon,
} from "lucide-react";
import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { cx } from "@/components/ui/class-names";
import type {
  Eviction,
  StateListName,
  WorkstreamState,
  WorkstreamStateDelta,
} from "@/lib/state/schema";
import { type AnyStateItem, addDelta, type Draft, draftOf, updateDelta } from "./edit";
import { STATE_LIST_LABELS, STATE_LIST_ORDER, TASK_STATUS_LABELS } from "./labels";
import { ItemAction, ItemActions, PanelSection, ShareBar } from "./panel-parts";
import { StateItemForm } from "./state-item-form";

export type StateActions = {
  /** Sends the member's edit; throws the server's refusal. */
  save: (delta: WorkstreamStateDelta) => Promise<void>;
  /** Asks before deleting; focus goes to `fallbackFocus` once the item is gone. */
  remove: (
    list: StateListName,
    item: AnyStateItem,
    fallbackFocus: () => HTMLElement | null,
  ) => void;
};

export type StateLimits = {
  lists: Record<StateListName, number>;
  /** The longest an item's text may be. */
  itemMaxChars: number;
};

export function StateLists({
  state,
  planActive,
  lastEvictions,
  limits,
  agentNames,
  actions,
}: {
  state: WorkstreamState;
  /** An execution plan is active: the agent then does not see the current plan's summary. */
  planActive: boolean;
  lastEvictions: Eviction[];
  limits: StateLimits;
  agentNames: Record<string, string>;
  actions: StateActions;
}) {
  const total = STATE_LIST_ORDER.reduce((sum, list) => sum + state[list].length, 0);
  return (
    <PanelSection
      id="context-state"
      title="Workstream state"
      meta={total > 0 ? `${total} ${total === 1 ? "item" : "items"}` : null}
    >
      {lastEvictions.length > 0 ? <EvictionNote evictions={lastEvictions} /> : null}
      <div className="space-y-2">
        {STATE_LIST_ORDER.map((list) => (
          <StateList
            key={list}
            list={list}
            items={state[list] as AnyStateItem[]}
            limit={limits.lists[list]}
            maxChars={limits.itemMaxChars}
            agentNames={agentNames}
            actions={actions}
            note={
              list === "currentPlan" && planActive && state.currentPlan.length > 0
                ? "Left out of the agent's context while the execution plan is active."
                : null
            }
          />
        ))}
      </div>
    </PanelSection>
  );
}

/** What the agent's last change pushed out of a full list, and by which rule. */
function EvictionNote({ evictions }: { evictions: Eviction[] }) {
  return (
    <div className="mb-3 rounded-lg border border-border bg-bg px-3 py-2 text-xs leading-5 text-fg-muted">
      <p className="font-medium text-fg">Removed to stay within the limits</p>
      <ul className="mt-0.5 space-y-0.5">
        {evictions.map((eviction) => (
          <li key={`${eviction.list}:${eviction.id}`} className="break-words">
            “{eviction.text}” from {STATE_LIST_LABELS[eviction.list].title.toLowerCase()}:{" "}
            {eviction.rule}.
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Focuses `ref` when `open` turns false: a closed form hands focus back to what opened it. */
function useFocusOnClose(open: boolean, ref: RefObject<HTMLElement | null>) {
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) ref.current?.focus();
    wasOpen.current = open;
  }, [open, ref]);
}

function StateList({
  list,
  items,
  limit,
  maxChars,
  agentNames,
  actions,
  note,
}: {
  list: StateListName;
  items: AnyStateItem[];
  limit: number;
  maxChars: number;
  agentNames: Record<string, string>;
  actions: StateActions;
  note: string | null;
}) {
  const [adding, setAdding] = useState(false);
  const addRef = useRef<HTMLButtonElement>(null);
  useFocusOnClose(adding, addRef);
  const label = STATE_LIST_LABELS[list];
  const headingId = `state-list-${list}`;
  const add = async (draft: Draft) => {
    await actions.save(addDelta(list, draft));
    setAdding(false);
  };
  return (
    <div data-state-list={list}>
      <div className="group flex min-h-7 items-center gap-2">
        <h4 id={headingId} className="text-[13px] font-medium text-fg">
          {label.title}
        </h4>
        {items.length > 0 ? (
          <span className="text-xs text-fg-subtle tabular-nums">
            {items.length}/{limit}
          </span>
        ) : (
          <span className="text-[13px] text-fg-subtle">none</span>
        )}
        <ItemAction
          ref={addRef}
          label={`Add ${label.article} ${label.noun}`}
          reveal
          onClick={() => setAdding(true)}
          className={cx("ml-auto", adding && "invisible")}
        >
          <PlusIcon className="size-4" />
        </ItemAction>
      </div>
      {note ? <p className="mb-1 text-xs text-fg-subtle">{note}</p> : null}
      {items.length > 0 ? (
        <ul className="mt-0.5 mb-2 space-y-0.5">
          {items.map((item) => (
            <StateItemView
              key={item.id}
              list={list}
              item={item}
              maxChars={maxChars}
              agentNames={agentNames}
              actions={actions}
              afterDelete={() => addRef.current}
            />
          ))}
        </ul>
      ) : null}
      {adding ? (
        <div className="mt-1 mb-2">
          <StateItemForm
            list={list}
            mode="add"
            initial={draftOf(null)}
            maxChars={maxChars}
            onSave={add}
            onCancel={() => setAdding(false)}
          />
        </div>
      ) : null}
    </div>
  );
}

function StateItemView({
  list,
  item,
  maxChars,
  agentNames,
  actions,
  afterDelete,
}: {
  list: StateListName;
  item: AnyStateItem;
  maxChars: number;
  agentNames: Record<string, string>;
  actions: StateActions;
  afterDelete: () => HTMLElement | null;
}) {
  const [editing, setEditing] = useState(false);
  const editRef = useRef<HTMLButtonElement>(null);
  useFocusOnClose(editing, editRef);
  const label = STATE_LIST_LABELS[list];
  const save = async (draft: Draft) => {
    const delta = updateDelta(list, item, draft);
    if (delta) await actions.save(delta);
    setEditing(false);
  };
  if (editing) {
    return (
      <li data-state-item={item.id} data-editing="" className="py-1">
        <StateItemForm
          list={list}
          mode="edit"
          initial={draftOf(item)}
          maxChars={maxChars}
          onSave={save}
          onCancel={() => setEditing(false)}
        />
      </li>
    );
  }
  const done = "status" in item && item.status === "done";
  return (
    <li
      data-state-item={item.id}
      className="group relative -mx-2 flex items-start gap-2 rounded-lg px-2 py-1.5 transition-colors hover:bg-bg-muted/60"
    >
      <ItemMarker item={item} />
      <div className="min-w-0 flex-1 text-[13px] leading-5">
        <p className={cx("break-words", done ? "text-fg-subtle line-through" : "text-fg")}>
          {item.text}
        </p>
        <ItemDetails item={item} agentNames={agentNames} />
      </div>
      <ItemActions>
        <ItemAction ref={editRef} label={`Edit ${label.noun}`} onClick={() => setEditing(true)}>
          <PencilIcon className="size-3.5" />
        </ItemAction>
        <ItemAction
          label={`Delete ${label.noun}`}
          onClick={() => actions.remove(list, item, afterDelete)}
          className="hover:text-danger!"
        >
          <Trash2Icon className="size-3.5" />
        </ItemAction>
      </ItemActions>
    </li>
  );
}

const TASK_ICONS = { open: CircleIcon, in_progress: CircleDotIcon, done: CircleCheckIcon };

function ItemMarker({ item }: { item: AnyStateItem }) {
  if ("status" in item) {
    const Icon = TASK_ICONS[item.status];
    return (
      <>
        <Icon
          aria-hidden="true"
          className={cx(
            "mt-0.5 size-4 shrink-0",
            item.status === "done"
              ? "text-emerald-600 dark:text-emerald-400"
              : item.status === "in_progress"
                ? "text-accent-text"
                : "text-fg-subtle",
          )}
        />
        <span className="sr-only">{TASK_STATUS_LABELS[item.status]}:</span>
      </>
    );
  }
  return (
    <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-border-strong" />
  );
}

function Pill({ children }: { children: ReactNode }) {
  return (
    <span className="inline-flex rounded-full border border-border bg-bg px-1.5 text-[11px] leading-[18px] font-medium text-fg-muted">
      {children}
    </span>
  );
}

function ItemDetails({
  item,
  agentNames,
}: {
  item: AnyStateItem;
  agentNames: Record<string, string>;
}) {
  if ("confidence" in item) {
    const percent = Math.round(item.confidence * 100);
    return (
      <>
        {item.rationale ? (
          <p data-rationale="" className="mt-0.5 break-words text-fg-muted">
            <span className="text-fg-subtle">Why: </span>
            {item.rationale}
          </p>
        ) : null}
        <p
          data-confidence={item.confidence}
          className="mt-1 flex items-center gap-2 text-xs text-fg-subtle"
        >
          <ShareBar value={percent} max={100} className="w-12" />
          <span>{percent}% confident</span>
        </p>
      </>
    );
  }
  if ("status" in item && item.status === "in_progress") {
    return (
      <p className="mt-1">
        <Pill>In progress</Pill>
      </p>
    );
  }
  if ("binding" in item && !item.binding) {
    return (
      <p className="mt-1">
        <Pill>Candidate</Pill>
      </p>
    );
  }
  if ("agentId" in item) {
    return (
      <p className="mt-1">
        <Pill>{agentNames[item.agentId] ?? item.agentId}</Pill>
      </p>
    );
  }
  return null;
}
