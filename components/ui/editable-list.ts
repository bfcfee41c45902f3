// A list a page edits in place, as pure steps: an item replaced after a save, dropped after a
// delete, put first after a create or a share. `useEditableList` holds one in React state.
export type Identified = { id: string };

/** `list` with `item` in place of the entry of the same id. */
export function replaceItem<T extends Identified>(list: readonly T[], item: T): T[] {
  return list.map((entry) => (entry.id === item.id ? item : entry));
}

/** `list` without the entry `id`. */
export function dropItem<T extends Identified>(list: readonly T[], id: string): T[] {
  return list.filter((entry) => entry.id !== id);
}

/** `item` first, and no other entry of its id (a create that merged into an existing one). */
export function putFirst<T extends Identified>(list: readonly T[], item: T): T[] {
  return [item, ...dropItem(list, item.id)];
}
