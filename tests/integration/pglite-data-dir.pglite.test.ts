// A new embedded data dir is created by a child process and moved into place
// (db/pglite-create.ts): the server opens a complete database or none, whatever happened to an
// earlier attempt, and a directory holding something else is refused, not overwritten.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DatabaseOpenError, openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

const root = mkdtempSync(path.join(tmpdir(), "ws-data-dir-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function workstreamCount(dataDir: string): Promise<number> {
  const handle = await openDatabase({ kind: "pglite", dataDir });
  try {
    await migrateDatabase(handle);
    if (handle.kind !== "pglite") throw new Error("expected the embedded database");
    const { rows } = await handle.client.query<{ n: number }>(
      `select count(*)::int as n from "workstreams"`,
    );
    return rows[0]?.n ?? -1;
  } finally {
    await handle.close();
  }
}

describe("a new embedded data dir", () => {
  it("is created, migrated and opened again, with nothing left beside it", async () => {
    const dataDir = path.join(root, "fresh");
    expect(await workstreamCount(dataDir)).toBe(0);
    expect(readFileSync(path.join(dataDir, "PG_VERSION"), "utf8").trim()).toMatch(/^\d+$/);
    expect(readdirSync(root).filter((name) => name.includes(".creating-"))).toEqual([]);
    expect(await workstreamCount(dataDir)).toBe(0);
  }, 60_000);

  it("replaces what an interrupted creation left, and uses an empty directory made beforehand", async () => {
    const dataDir = path.join(root, "interrupted");
    const leftover = `${dataDir}.creating-424242`;
    mkdirSync(path.join(leftover, "base"), { recursive: true });
    writeFileSync(path.join(leftover, "PG_VERSION"), "17\n");
    mkdirSync(dataDir);
    expect(await workstreamCount(dataDir)).toBe(0);
    expect(readdirSync(root).filter((name) => name.startsWith("interrupted.creating-"))).toEqual(
      [],
    );
  }, 60_000);

  it("refuses a directory that holds something other than a database, and leaves it as it was", async () => {
    const dataDir = path.join(root, "occupied");
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, "notes.txt"), "not a database");
    const failure = await openDatabase({ kind: "pglite", dataDir }).then(
      async (handle) => {
        await handle.close();
        return null;
      },
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DatabaseOpenError);
    expect(String(failure)).toMatch(/holds files but no database/);
    expect(readdirSync(dataDir)).toEqual(["notes.txt"]);
    expect(readdirSync(root).filter((name) => name.startsWith("occupied.creating-"))).toEqual([]);
  }, 60_000);
});
