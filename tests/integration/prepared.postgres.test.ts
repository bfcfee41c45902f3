// On Postgres the app's data statements sent through drizzle are prepared on their connection
// (parsed and planned once), inside transactions as well, while DDL goes as before.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { createTestDatabase, type TestDatabase } from "../support/test-db";

let testDb: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  testDb = await createTestDatabase();
  // One connection: pg_prepared_statements shows that connection's statements only.
  handle = await openDatabase({ kind: "postgres", url: testDb.url ?? "", max: 1 });
});
afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
});

async function rows(query: ReturnType<typeof sql>): Promise<unknown[]> {
  return [...((await handle.db.execute(query)) as unknown as unknown[])];
}

describe("prepared statements on Postgres", () => {
  it("prepares drizzle's data statements once per connection, and not its DDL", async () => {
    await handle.db.execute(sql`create table prepared_probe (id int primary key, body text)`);
    await handle.db.execute(sql`insert into prepared_probe values (${1}, ${"one"})`);
    expect(await rows(sql`select body from prepared_probe where id = ${1}`)).toEqual([
      { body: "one" },
    ]);
    expect(await rows(sql`select body from prepared_probe where id = ${1}`)).toEqual([
      { body: "one" },
    ]);
    const prepared = (await rows(
      sql`select statement from pg_prepared_statements where not from_sql`,
    )) as Array<{ statement: string }>;
    const statements = prepared.map((row) => row.statement);
    expect(
      statements.filter((text) => text.startsWith("select body from prepared_probe")),
    ).toHaveLength(1);
    expect(statements.some((text) => text.startsWith("insert into prepared_probe"))).toBe(true);
    expect(statements.some((text) => text.startsWith("create table"))).toBe(false);
  });

  it("keeps transactions whole: a failed one writes nothing", async () => {
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into prepared_probe values (${2}, ${"two"})`);
        await tx.execute(sql`insert into prepared_probe values (${1}, ${"duplicate"})`);
      }),
    ).rejects.toThrow();
    expect(await rows(sql`select id from prepared_probe order by id`)).toEqual([{ id: 1 }]);
  });

  it("prepares the statements of a transaction and of a savepoint within it, once each", async () => {
    for (const id of [10, 11]) {
      await handle.db.transaction(async (tx) => {
        await tx.execute(
          sql`insert into prepared_probe (id, body) values (${id}, ${"in a transaction"})`,
        );
        await tx.transaction(async (inner) => {
          await inner.execute(
            sql`update prepared_probe set body = ${"in a savepoint"} where id = ${id}`,
          );
        });
      });
    }
    expect(
      await rows(sql`select body from prepared_probe where id in (10, 11) order by id`),
    ).toEqual([{ body: "in a savepoint" }, { body: "in a savepoint" }]);
    const prepared = (await rows(
      sql`select statement from pg_prepared_statements where not from_sql`,
    )) as Array<{ statement: string }>;
    const statements = prepared.map((row) => row.statement);
    expect(
      statements.filter((text) => text.startsWith("insert into prepared_probe (id, body)")),
    ).toHaveLength(1);
    expect(
      statements.filter((text) => text.startsWith("update prepared_probe set body")),
    ).toHaveLength(1);
  });
});
