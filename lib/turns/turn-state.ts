// The turn's states in one place: which are open (the workstream has a turn) and which are
// running (a process is working on it). Every state list, `isRunning` and SQL filter uses these.
import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
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

const quoted = (states: readonly string[]) =>
  sql.raw(states.map((state) => `'${state}'`).join(", "));
/** For hand-written SQL: `state in (${RUNNING_STATES_LIST})`. */
export const RUNNING_STATES_LIST = quoted(RUNNING_STATES);
export const OPEN_STATES_LIST = quoted(OPEN_STATES);

// The states are written into the statement's text, not sent as parameters: a prepared
// statement's generic plan can then use the partial index on open turns, whose condition the
// planner must see the query imply.
export function isOpenSql(column: AnyPgColumn): SQL {
  return sql`${column} in (${OPEN_STATES_LIST})`;
}

export function isRunningSql(column: AnyPgColumn): SQL {
  return sql`${column} in (${RUNNING_STATES_LIST})`;
}
