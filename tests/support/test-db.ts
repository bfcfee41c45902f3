// A fresh database for one test file, copied from the migrated template, installed as the
// process-wide database. PGlite when TEST_DB_KIND=pglite, Postgres when TEST_DB_KIND=postgres.
import { readFileSync } from "node:fs";
import postgres from "postgres";
import {
  closeDatabase,
  type DatabaseHandle,
  openDatabase,
  type QueryListener,
  setDatabase,
} from "@/db/client";
import { stopJobs } from "@/inngest/engine";
import { resetAuth } from "@/lib/auth/auth";
import { PGLITE_TEMPLATE, POSTGRES_TEMPLATE_DB, withDatabase } from "./template";

export type TestDbKind = "pglite" | "postgres";

export function testDbKind(): TestDbKind {
  return process.env.TEST_DB_KIND === "postgres" ? "postgres" : "pglite";
}

export type TestDatabase = { handle: DatabaseHandle; url?: string; drop(): Promise<void> };

/** Creates a copy of the template. On Postgres `url` lets other processes open the same copy. */
export async function createTestDatabase(
  options: { onQuery?: QueryListener } = {},
): Promise<TestDatabase> {
  if (testDbKind() === "pglite") {
    const blob = new Blob([readFileSync(PGLITE_TEMPLATE)]);
    const handle = await openDatabase({
      kind: "pglite",
      dataDir: "memory://",
      loadDataDir: blob,
      lock: false,
      onQuery: options.onQuery,
    });
    return { handle, drop: () => handle.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `ws_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name} template ${POSTGRES_TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const handle = await openDatabase({ kind: "postgres", url, max: 10, onQuery: options.onQuery });
  return {
    handle,
    url,
    drop: async () => {
      await handle.close();
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** Installs a fresh copy as the process-wide database; returns the teardown. */
export async function useTestDatabase(
  options: { onQuery?: QueryListener } = {},
): Promise<TestDatabase> {
  const testDb = await createTestDatabase(options);
  setDatabase(testDb.handle);
  resetAuth();
  return testDb;
}

export async function releaseTestDatabase(testDb: TestDatabase): Promise<void> {
  resetAuth();
  // A file that wired the domains started the job engine on this database: stop it first.
  await stopJobs();
  await testDb.drop();
  await closeDatabase();
}
