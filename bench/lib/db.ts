// Databases for the benchmark: a fresh, empty database per Postgres server in the throwaway
// cluster (the app migrates it at start-up), and bulk-inserted history straight into `messages`.
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { REPO } from "./app-build";

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** `url` with libpq's `?host=` naming the cluster's first Unix-domain socket directory. */
export async function overSocket(url: string): Promise<string> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await client<Array<{ dirs: string }>>`
      select current_setting('unix_socket_directories') as dirs`;
    const directory = (row?.dirs ?? "").split(",")[0]?.trim() ?? "";
    if (!directory.startsWith("/")) throw new Error("the cluster listens on no Unix-domain socket");
    const parsed = new URL(url);
    parsed.searchParams.set("host", directory);
    return parsed.toString();
  } finally {
    await client.end({ timeout: 5 });
  }
}

export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  return withDatabase(adminUrl, name);
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** Leftover bench databases of runs that were killed (bench_<pid>_…; the pid is gone). */
export async function dropStaleDatabases(adminUrl: string): Promise<string[]> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const dropped: string[] = [];
  try {
    const rows = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like 'bench\\_%'`;
    for (const { datname } of rows) {
      const pid = Number(/^bench_(\d+)_/.exec(datname)?.[1]);
      if (!pid || pid === process.pid) continue;
      try {
        process.kill(pid, 0);
        continue; // that run is still going
      } catch {
        // gone
      }
      await admin.unsafe(`drop database if exists ${datname} with (force)`);
      dropped.push(datname);
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
  return dropped;
}

/**
 * SQL that appends `count` messages (alternating user/assistant, ~300 characters of text each)
 * to one workstream, ids `${prefix}${n}` for n = 1…count in insertion (seq) order.
 */
export function historyInsertSql(workstreamId: string, count: number, prefix: string): string {
  const ws = workstreamId.replaceAll("'", "''");
  const pre = prefix.replaceAll("'", "''");
  return `
    insert into messages (workstream_id, id, role, parts, metadata, token_count, turn_id)
    select '${ws}',
           '${pre}' || g,
           case when g % 2 = 1 then 'user' else 'assistant' end,
           jsonb_build_array(jsonb_build_object(
             'type', 'text',
             'text', 'Message ' || g || ': ' || repeat('the quick brown fox jumps over the lazy dog ', 7))),
           case when g % 2 = 1 then '{}'::jsonb
                else jsonb_build_object('agentId', 'chief', 'model', 'offline-1', 'outputTokens', 70) end,
           72,
           null
    from generate_series(1, ${count}) as g
    order by g`;
}

export async function insertHistoryPostgres(
  url: string,
  workstreamId: string,
  count: number,
  prefix: string,
): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(historyInsertSql(workstreamId, count, prefix));
    await sql.unsafe("analyze messages");
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** PGlite is one process per data dir: call this while no server has it open. */
export async function insertHistoryPglite(
  dataDir: string,
  workstreamId: string,
  count: number,
  prefix: string,
): Promise<void> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { vector } = await import("@electric-sql/pglite-pgvector");
  const db = await PGlite.create(path.resolve(REPO, dataDir), { extensions: { vector } });
  try {
    await db.exec(historyInsertSql(workstreamId, count, prefix));
    await db.exec("analyze messages");
  } finally {
    await db.close();
  }
}

export type DatabaseStats = {
  xacts: number;
  inserted: number;
  updated: number;
  deleted: number;
  fetched: number;
};

/**
 * Cumulative activity of one database (pg_stat_database). Backends publish their counts at most
 * once a second and idle ones within ~10 s, so read it after a quiet period.
 */
export async function databaseStats(adminUrl: string, name: string): Promise<DatabaseStats> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin<
      { xacts: string; inserted: string; updated: string; deleted: string; fetched: string }[]
    >`
      select xact_commit + xact_rollback as xacts, tup_inserted as inserted,
             tup_updated as updated, tup_deleted as deleted, tup_fetched as fetched
      from pg_stat_database where datname = ${name}`;
    return {
      xacts: Number(row?.xacts ?? 0),
      inserted: Number(row?.inserted ?? 0),
      updated: Number(row?.updated ?? 0),
      deleted: Number(row?.deleted ?? 0),
      fetched: Number(row?.fetched ?? 0),
    };
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/**
 * `log_statement = all` for one database (its new connections), or back to the cluster's
 * setting. Returns the cluster's log file (the postmaster's stderr) when this machine can read
 * it, else undefined.
 */
export async function setStatementLog(
  adminUrl: string,
  name: string,
  on: boolean,
): Promise<string | undefined> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(
      on
        ? `alter database ${name} set log_statement = 'all'`
        : `alter database ${name} reset log_statement`,
    );
    const [row] = await admin<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const stat = readFileSync(`/proc/${row?.pid}/stat`, "utf8");
    const postmaster = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
    const file = readlinkSync(`/proc/${postmaster}/fd/2`);
    return file.startsWith("/") && existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** Process ids of the backends connected to database `name`. */
export async function backendPids(adminUrl: string, name: string): Promise<Set<number>> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await admin<{ pid: number }[]>`
      select pid from pg_stat_activity where datname = ${name}`;
    return new Set(rows.map((row) => Number(row.pid)));
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** Table sizes (heap + indexes + toast) and row counts of one database's public tables. */
export async function tableSizes(
  url: string,
): Promise<Array<{ table: string; rows: number; bytes: number }>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<
      { table: string; rows: string; bytes: string }[]
    >`${sql.unsafe(TABLE_SIZES_SQL)}`;
    return rows.map((r) => ({ table: r.table, rows: Number(r.rows), bytes: Number(r.bytes) }));
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export const TABLE_SIZES_SQL = `
  select relname as "table", n_live_tup::bigint as rows,
         pg_total_relation_size(relid)::bigint as bytes
  from pg_stat_user_tables where schemaname = 'public'
  order by pg_total_relation_size(relid) desc`;
