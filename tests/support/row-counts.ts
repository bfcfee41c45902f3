// Row counts of every table of the app's schema, in one query: "nothing was written" is
// asserted by comparing two of these.
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { getDb } from "@/db/client";
import * as schema from "@/db/schema";

const TABLES = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableName(table))
  .sort();

export function schemaTableNames(): string[] {
  return [...TABLES];
}

export async function countRows(): Promise<Record<string, number>> {
  const db = await getDb();
  const columns = sql.join(
    TABLES.map(
      (name) => sql`(select count(*) from ${sql.identifier(name)})::int as ${sql.identifier(name)}`,
    ),
    sql`, `,
  );
  const result = await db.execute(sql`select ${columns}`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<
    Record<string, number>
  >;
  const [row] = rows;
  if (!row) throw new Error("row count query returned nothing");
  return Object.fromEntries(TABLES.map((name) => [name, Number(row[name])]));
}
