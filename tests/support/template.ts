// Migrated template databases for integration tests. Migrating a fresh PGlite takes seconds, so
// global setup migrates once and every test file starts from a copy: a PGlite data-dir dump, or
// on Postgres `CREATE DATABASE … TEMPLATE`.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

export const PGLITE_TEMPLATE = path.resolve(".data/test-template/pglite.tar.gz");
export const POSTGRES_TEMPLATE_DB = "workstreams_template";

export async function buildPgliteTemplate(): Promise<string> {
  const handle = await openDatabase({ kind: "pglite", dataDir: "memory://", lock: false });
  if (handle.kind !== "pglite") throw new Error("expected pglite");
  await migrateDatabase(handle);
  const dump = await handle.client.dumpDataDir("gzip");
  mkdirSync(path.dirname(PGLITE_TEMPLATE), { recursive: true });
  writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  return PGLITE_TEMPLATE;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function buildPostgresTemplate(adminUrl: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${POSTGRES_TEMPLATE_DB}' and pid <> pg_backend_pid()`,
    );
    await admin.unsafe(`drop database if exists ${POSTGRES_TEMPLATE_DB}`);
    await admin.unsafe(`create database ${POSTGRES_TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({
    kind: "postgres",
    url: withDatabase(adminUrl, POSTGRES_TEMPLATE_DB),
    max: 1,
  });
  try {
    await migrateDatabase(handle);
  } finally {
    await handle.close();
  }
}
