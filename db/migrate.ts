// Applies the committed drizzle-kit migrations with drizzle-orm's migrator. On Postgres an
// advisory lock serializes concurrent starts of several server processes.
import "server-only";
import path from "node:path";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { DatabaseHandle } from "./client";
import { postgresClient } from "./postgres-target";

const MIGRATION_LOCK = 727_001;

export function migrationsFolder(): string {
  // The committed folder is a static path, so the build traces it (and only it); a folder named
  // at run time is the operator's and stays out of the trace.
  const named = process.env.MIGRATIONS_DIR;
  if (named) return path.resolve(/*turbopackIgnore: true*/ named);
  return path.join(process.cwd(), "db", "migrations");
}

export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const migrationsConfig = { migrationsFolder: migrationsFolder() };
  if (handle.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as unknown as PgliteDatabase, migrationsConfig);
    return;
  }
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  // One dedicated connection so the advisory lock and the migration share a session.
  const client = await postgresClient(handle.url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(client), migrationsConfig);
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
