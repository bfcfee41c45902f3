// The embedded database runs the app's statements as named prepared statements: parsed and
// planned once, then run with new parameters only. Results and errors must be what PGlite's own
// query() gives, and a table changed under a prepared statement must not break it.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { queryPrepared } from "@/db/prepared";

let handle: Extract<DatabaseHandle, { kind: "pglite" }>;

beforeAll(async () => {
  const opened = await openDatabase({ kind: "pglite", dataDir: "memory://prepared-test" });
  if (opened.kind !== "pglite") throw new Error("expected PGlite");
  handle = opened;
  await handle.client.exec(`
    create table notes (id int primary key, body text not null, meta jsonb, at timestamptz);
    insert into notes values (1, 'one', '{"tags":["a"]}', '2026-01-02T03:04:05Z');`);
});
afterAll(async () => {
  await handle?.close();
});

/** Rows of a statement sent through drizzle (PGlite's result shape). */
async function drizzleRows(query: ReturnType<typeof sql>): Promise<unknown[]> {
  return ((await handle.db.execute(query)) as unknown as { rows: unknown[] }).rows;
}

async function preparedNames(): Promise<Array<{ name: string; statement: string }>> {
  const { rows } = await handle.client.query<{ name: string; statement: string }>(
    "select name, statement from pg_prepared_statements order by name",
  );
  return rows;
}

describe("named prepared statements on the embedded database", () => {
  it("prepares a statement once and gives the same rows and types as an unprepared query", async () => {
    const text = "select id, body, meta, at from notes where id = $1";
    const plain = await handle.client.query(text, [1]);
    const first = await queryPrepared(handle.client, text, [1]);
    const second = await queryPrepared(handle.client, text, [1]);
    expect(first.rows).toEqual(plain.rows);
    expect(second.rows).toEqual(plain.rows);
    expect(first.rows[0]).toMatchObject({ body: "one", meta: { tags: ["a"] } });
    expect((first.rows[0] as { at: unknown }).at).toBeInstanceOf(Date);
    expect((await preparedNames()).filter((row) => row.statement === text)).toHaveLength(1);
  });

  it("applies a statement's own type parsers over the client's, and leaves the client's as they were", async () => {
    const text = "select id, meta, at from notes where id = $1";
    // What drizzle passes with its statements: timestamps kept as Postgres wrote them.
    const asText = { parsers: { 1184: (value: string) => value } };
    const plain = await handle.client.query(text, [1], asText);
    const prepared = await queryPrepared(handle.client, text, [1], asText);
    expect(prepared.rows).toEqual(plain.rows);
    expect(prepared.rows[0]).toMatchObject({ id: 1, meta: { tags: ["a"] } });
    expect(typeof (prepared.rows[0] as { at: unknown }).at).toBe("string");
    // The next statement without parsers of its own gets the client's: a Date again.
    const after = await queryPrepared(handle.client, text, [1]);
    expect((after.rows[0] as { at: unknown }).at).toBeInstanceOf(Date);
    expect(Object.hasOwn(handle.client.parsers, 1184)).toBe(true);
    expect(handle.client.parsers[1184]).not.toBe(asText.parsers[1184]);
  });

  it("serializes parameters by their statement types, arrays and json included", async () => {
    const rows = await queryPrepared<{ id: number; body: string }>(
      handle.client,
      `insert into notes (id, body, meta) select v.id, v.body, $3::jsonb
        from unnest($1::int[], $2::text[]) as v(id, body) returning id, body`,
      [[2, 3], ["two", 'th"r,ee'], { source: "test" }],
    );
    expect(rows.rows).toEqual([
      { id: 2, body: "two" },
      { id: 3, body: 'th"r,ee' },
    ]);
    const inserted = await handle.client.query("select meta from notes where id = 3");
    expect(inserted.rows).toEqual([{ meta: { source: "test" } }]);
  });

  it("keeps Postgres's error codes, writes nothing, and goes on working after an error", async () => {
    const insert = "insert into notes (id, body) values ($1, $2)";
    await expect(queryPrepared(handle.client, insert, [1, "again"])).rejects.toMatchObject({
      code: "23505",
    });
    await expect(queryPrepared(handle.client, insert, [1, null])).rejects.toMatchObject({
      code: "23502",
    });
    await queryPrepared(handle.client, insert, [4, "four"]);
    const { rows } = await handle.client.query(
      "select body from notes where id in (1, 4) order by id",
    );
    expect(rows).toEqual([{ body: "one" }, { body: "four" }]);
  });

  it("follows a table that changed shape under a prepared statement", async () => {
    const text = "select * from notes where id = $1";
    expect(
      Object.keys((await queryPrepared(handle.client, text, [1])).rows[0] ?? {}),
    ).not.toContain("extra");
    await handle.client.exec("alter table notes add column extra text default 'x'");
    const after = await queryPrepared(handle.client, text, [1]);
    expect(after.rows[0]).toMatchObject({ id: 1, extra: "x" });
  });

  it("keeps at most 200 statements, closing the least recently run", async () => {
    const kept = "select body from notes where id = $1 and 1 = 1";
    await queryPrepared(handle.client, kept, [1]);
    for (let i = 0; i < 250; i++) {
      await queryPrepared(handle.client, `select ${i} as n, body from notes where id = $1`, [1]);
      // One statement stays in use throughout: it is never the least recently run.
      if (i % 50 === 0) await queryPrepared(handle.client, kept, [1]);
    }
    const names = await preparedNames();
    expect(names.length).toBeLessThanOrEqual(200);
    expect(names.map((row) => row.statement)).toContain(kept);
    expect(names.map((row) => row.statement)).not.toContain(
      "select 0 as n, body from notes where id = $1",
    );
  });

  it("runs drizzle's statements prepared, and keeps its transactions whole", async () => {
    const [row] = await drizzleRows(sql`select body from notes where id = ${4}`);
    expect(row).toEqual({ body: "four" });
    const statements = (await preparedNames()).map((entry) => entry.statement);
    expect(statements).toContain("select body from notes where id = $1");
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into notes (id, body) values (${5}, ${"five"})`);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await drizzleRows(sql`select count(*)::int as n from notes where id = 5`)).toEqual([
      { n: 0 },
    ]);
  });

  it("runs a transaction's statements prepared, savepoints included, and keeps it whole", async () => {
    const insert = "insert into notes (id, body) values ($1, $2)";
    for (const id of [6, 7]) {
      await handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into notes (id, body) values (${id}, ${"in a transaction"})`);
        await tx.transaction(async (inner) => {
          await inner.execute(sql`update notes set body = ${"in a savepoint"} where id = ${id}`);
        });
      });
    }
    expect(await drizzleRows(sql`select body from notes where id in (6, 7) order by id`)).toEqual([
      { body: "in a savepoint" },
      { body: "in a savepoint" },
    ]);
    const statements = (await preparedNames()).map((entry) => entry.statement);
    expect(statements.filter((text) => text === insert)).toHaveLength(1);
    expect(statements).toContain("update notes set body = $1 where id = $2");

    // A statement that fails inside a transaction keeps its code and rolls all of it back.
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into notes (id, body) values (${8}, ${"eight"})`);
        await tx.execute(sql`insert into notes (id, body) values (${1}, ${"duplicate"})`);
      }),
    ).rejects.toMatchObject({ cause: { code: "23505" } });
    expect(await drizzleRows(sql`select count(*)::int as n from notes where id = 8`)).toEqual([
      { n: 0 },
    ]);
    // The prepared statement goes on working after the rolled-back transaction.
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes (id, body) values (${8}, ${"eight"})`);
    });
    expect(await drizzleRows(sql`select body from notes where id = 8`)).toEqual([
      { body: "eight" },
    ]);
  });
});
