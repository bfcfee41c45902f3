// The database handle: PGlite on disk by default, Postgres through postgres-js when DATABASE_URL
// is set. Same schema, same migrations, same query code. Opened lazily (never during
// `next build`), one instance per process, kept on globalThis so Next's separate module graphs
// (instrumentation, route handlers) share it.
import "server-only";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations, SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import { PROCESS_ID } from "@/lib/kernel/process-id";
import { processSingleton } from "@/lib/kernel/singleton";
import { lockDataDir } from "./lock";
import { createDataDir } from "./pglite-create";
import { postgresClient } from "./postgres-target";
import { queryPrepared, withPreparedQueries, withPreparedStatements } from "./prepared";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/**
 * An open transaction. It is also a `Db`, so every query function takes it; a function that must
 * run inside the caller's transaction (a lock held until commit) asks for a `Tx` instead.
 */
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type DatabaseHandle =
  | {
      kind: "pglite";
      db: Db;
      client: PGlite;
      dataDir: string;
      onQuery?: QueryListener;
      close(): Promise<void>;
    }
  | { kind: "postgres"; db: Db; client: Sql; url: string; close(): Promise<void> };

/** Sees every statement the app sends (the benchmark counts them; `WORKSTREAMS_SQL_TRACE=1`). */
export type QueryListener = (query: string) => void;

export type OpenOptions =
  | {
      kind: "pglite";
      dataDir: string;
      loadDataDir?: Blob;
      lock?: boolean;
      onQuery?: QueryListener;
      /** Postgres settings for the embedded server, over PGLITE_DEFAULT_SETTINGS. */
      settings?: Record<string, string>;
    }
  | { kind: "postgres"; url: string; max?: number; onQuery?: QueryListener };

export class DatabaseOpenError extends Error {
  constructor(where: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `The embedded database at ${where} could not be opened (${reason}). ` +
        `If it is damaged, move it aside (mv ${where} ${where}.broken) and start again: ` +
        "a fresh database will be created and migrated.",
    );
    this.name = "DatabaseOpenError";
  }
}

/** The Postgres application_name of a server process's connections (at most 63 bytes). */
export function applicationName(processId: string): string {
  return `workstreams:${processId}`.slice(0, 63);
}

export function databaseOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): OpenOptions {
  const url = env.DATABASE_URL?.trim();
  const onQuery = env.WORKSTREAMS_SQL_TRACE === "1" ? traceQuery : undefined;
  if (url) return { kind: "postgres", url, max: Number(env.DATABASE_POOL_SIZE ?? 10), onQuery };
  // The data directory is written at run time, never shipped: kept out of the build's file trace.
  const dataDir = path.resolve(
    /*turbopackIgnore: true*/ env.PGLITE_DATA_DIR ?? path.join(process.cwd(), ".data", "pglite"),
  );
  return { kind: "pglite", dataDir, onQuery, settings: parsePgliteSettings(env.PGLITE_SETTINGS) };
}

/**
 * The embedded Postgres's settings. Its memory is a WebAssembly heap that grows and never
 * shrinks, inside the server process: Postgres's defaults size it for a machine of its own
 * (128 MB of shared buffers alone). The working set of the app's tables is small, so a small
 * buffer pool costs little reading and keeps the server's memory flat (docs/benchmarks.md).
 */
export const PGLITE_DEFAULT_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: "16MB",
  // Vacuum (lib/stream/log-maintenance.ts) sorts dead row ids in this much memory.
  maintenance_work_mem: "16MB",
};

/**
 * Set on every connection: a filtered nearest-neighbour search (a member's memories among the
 * organization's) scans the HNSW index on until enough rows pass the filter, instead of stopping
 * after the first 40 candidates (pgvector 0.8's iterative scan; the query re-sorts the relaxed
 * order). Before pgvector loads, the setting waits as a placeholder, which it then picks up.
 */
const VECTOR_SEARCH_SETTINGS = { "hnsw.iterative_scan": "relaxed_order" } as const;

/** `PGLITE_SETTINGS="shared_buffers=32MB work_mem=2MB"`: space- or comma-separated name=value. */
export function parsePgliteSettings(raw: string | undefined): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const entry of (raw ?? "").split(/[\s,]+/)) {
    if (!entry) continue;
    const match = /^([a-z_][a-z0-9_.]*)=([\w.-]+)$/i.exec(entry);
    if (!match?.[1] || match[2] === undefined) {
      throw new Error(
        `PGLITE_SETTINGS takes name=value pairs such as shared_buffers=32MB, got "${entry}".`,
      );
    }
    settings[match[1]] = match[2];
  }
  return settings;
}

function traceQuery(query: string): void {
  process.stderr.write(`[sql] ${query.replaceAll(/\s+/g, " ")}\n`);
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.kind === "postgres") {
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = await postgresClient(options.url, {
      max: options.max ?? 10,
      onnotice: () => {},
      // Named per process, so a server can tell whether others share the database.
      connection: { application_name: applicationName(PROCESS_ID), ...VECTOR_SEARCH_SETTINGS },
      // postgres-js sees every statement, the ones sent outside drizzle included.
      debug: options.onQuery && ((_connection, query) => options.onQuery?.(query)),
    });
    const db: Db = drizzle({ client: withPreparedStatements(client), schema });
    return {
      kind: "postgres",
      db,
      client,
      url: options.url,
      close: () => client.end({ timeout: 5 }),
    };
  }
  const release = options.lock === false ? () => {} : prepareDataDir(options.dataDir);
  const isNewDataDir =
    !options.dataDir.startsWith("memory://") &&
    !options.loadDataDir &&
    !existsSync(path.join(options.dataDir, "PG_VERSION"));
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { vector } = await import("@electric-sql/pglite-pgvector");
    const { drizzle } = await import("drizzle-orm/pglite");
    const settings = { ...PGLITE_DEFAULT_SETTINGS, ...options.settings };
    // A new data dir is made apart (./pglite-create): initdb's memory would stay with this process.
    if (isNewDataDir) await createDataDir(options.dataDir);
    const client = await PGlite.create(options.dataDir, {
      extensions: { vector },
      loadDataDir: options.loadDataDir,
      startParams: [
        ...PGlite.defaultStartParams,
        ...Object.entries({ ...settings, ...VECTOR_SEARCH_SETTINGS }).flatMap(([name, value]) => [
          "-c",
          `${name}=${value}`,
        ]),
      ],
    });
    const logger = options.onQuery && { logQuery: options.onQuery };
    const db: Db = drizzle({ client: withPreparedQueries(client), schema, logger });
    const close = async () => {
      try {
        if (!client.closed) await client.close();
      } finally {
        release();
      }
    };
    return {
      kind: "pglite",
      db,
      client,
      dataDir: options.dataDir,
      onQuery: options.onQuery,
      close,
    };
  } catch (error) {
    release();
    throw new DatabaseOpenError(options.dataDir, error);
  }
}

function prepareDataDir(dataDir: string): () => void {
  if (dataDir.startsWith("memory://")) return () => {};
  mkdirSync(path.dirname(dataDir), { recursive: true });
  return lockDataDir(dataDir);
}

type Registry = { handle?: Promise<DatabaseHandle>; closed?: boolean };
const registry = processSingleton<Registry>("db", () => ({}));

/** The process-wide database, opened on first use. */
export function getDatabase(): Promise<DatabaseHandle> {
  // After shutdown closed it, opening it again would race the exit for the data dir's lock.
  if (registry.closed)
    return Promise.reject(new Error("The database is closed: the server is stopping."));
  if (!registry.handle) {
    registry.handle = openDatabase(databaseOptionsFromEnv());
    registry.handle.catch(() => {
      registry.handle = undefined;
    });
  }
  return registry.handle;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Runs `fn` in one transaction of the process-wide database: all of it commits, or none. */
export async function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return (await getDb()).transaction(fn);
}

/** Replaces the process-wide database (tests, benchmarks). */
export function setDatabase(handle: DatabaseHandle): void {
  registry.handle = Promise.resolve(handle);
}

/**
 * Closes the process-wide database (PGlite releases its data-dir lock after closing). `final`
 * (the server is stopping): it is never opened again in this process.
 */
export async function closeDatabase({ final = false }: { final?: boolean } = {}): Promise<void> {
  const handle = registry.handle;
  registry.handle = undefined;
  if (final) registry.closed = true;
  if (handle) await (await handle).close();
}

const dialect = new PgDialect();

/**
 * Runs one of the turn's hot statements (constant text, positional parameters) as a prepared
 * statement (parsed and planned once, then sent as parameters only; db/prepared.ts), straight
 * to the driver: without drizzle's session, its logger and its result mapping.
 */
export async function executePrepared<T>(query: SQL): Promise<T[]> {
  const handle = await getDatabase();
  const { sql: text, params } = dialect.sqlToQuery(query);
  if (handle.kind === "postgres") {
    return (await handle.client.unsafe(text, params as never[], { prepare: true })) as T[];
  }
  handle.onQuery?.(text);
  return (await queryPrepared<T>(handle.client, text, params)).rows;
}
