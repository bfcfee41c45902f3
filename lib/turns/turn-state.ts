// The turn's states in one place: which are open (the workstream has a turn) and which are
// running (a process is working on it). Every state list, `isRunning` and SQL filter uses these.
import type { SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { isOneOf, literalList } from "@/db/literals";
import type { TurnState } from "@/db/schema";

/** A turn that still holds its workstream: a new message gets 409 while one exists. */
export const OPEN_STATES = ["pending", "active", "suspended"] as const satisfies TurnState[];
/** A turn some process works on now; a suspended turn waits for a person instead. */
export const RUNNING_STATES = ["pending", "active"] as const satisfies TurnState[];

export type OpenState = (typeof OPEN_STATES)[number];
export type RunningState = (typeof RUNNING_STATES)[number];

export function isOpen(state: TurnState): state is OpenState {
  return (OPEN_STATES as readonly TurnState[]).includes(state);
}

export function isRunning(state: TurnState): state is RunningState {
  return (RUNNING_STATES as readonly TurnState[]).includes(state);
}

/** For hand-written SQL: `state in (${RUNNING_STATES_LIST})`. */
export const RUNNING_STATES_LIST = literalList(RUNNING_STATES);
export const OPEN_STATES_LIST = literalList(OPEN_STATES);

export function isOpenSql(column: AnyPgColumn): SQL {
  return isOneOf(column, OPEN_STATES);
}

export function isRunningSql(column: AnyPgColumn): SQL {
  return isOneOf(column, RUNNING_STATES);
}
