// Constant values written into a statement's text rather than sent as parameters. A prepared
// statement runs on a generic plan after a few runs, and a generic plan cannot see a parameter's
// value: a filter on a state that selects a partial index's rows (due jobs, open turns) must be
// in the text, or the planner cannot prove the index holds the rows and reads the whole table.
import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/** Only plain identifiers-like constants: these are quoted into the text, never user input. */
const CONSTANT = /^[a-z_]+$/;

/** `'a', 'b'` for hand-written SQL: `state in (${literalList(STATES)})`. */
export function literalList(values: readonly string[]): SQL {
  for (const value of values) {
    if (!CONSTANT.test(value)) throw new Error(`Not a constant for a statement's text: ${value}`);
  }
  return sql.raw(values.map((value) => `'${value}'`).join(", "));
}

/** `column in ('a', 'b')`, the values in the text. */
export function isOneOf(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} in (${literalList(values)})`;
}
