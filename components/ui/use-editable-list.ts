"use client";
// The state of a list a page edits in place (memories, skills, members): its items, and for a
// paged list whether the server has more. Saves, deletes and shares call the API, then change
// the list through these steps.
import { useState } from "react";
import { dropItem, type Identified, putFirst, replaceItem } from "./editable-list";

export type EditableList<T extends Identified> = {
  items: T[];
  hasMore: boolean;
  replace: (item: T) => void;
  drop: (id: string) => void;
  putFirst: (item: T) => void;
  /** A new first page (a search): the list becomes `items`. */
  showPage: (page: { items: T[]; hasMore: boolean }) => void;
  /** The next page (Load more): `items` go after the ones shown. */
  addPage: (page: { items: T[]; hasMore: boolean }) => void;
};

export function useEditableList<T extends Identified>(
  initial: T[],
  initialHasMore = false,
): EditableList<T> {
  const [state, setState] = useState({ items: initial, hasMore: initialHasMore });
  const change = (step: (items: T[]) => T[]) =>
    setState((current) => ({ ...current, items: step(current.items) }));
  return {
    items: state.items,
    hasMore: state.hasMore,
    replace: (item) => change((items) => replaceItem(items, item)),
    drop: (id) => change((items) => dropItem(items, id)),
    putFirst: (item) => change((items) => putFirst(items, item)),
    showPage: (page) => setState(page),
    addPage: (page) =>
      setState((current) => ({ items: [...current.items, ...page.items], hasMore: page.hasMore })),
  };
}
