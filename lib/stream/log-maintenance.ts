// Vacuum for the embedded database. PGlite runs Postgres in single-user mode, without the
// autovacuum worker: nothing removes the dead row versions that every turn leaves in `turns`,
// `workstreams` and the session rows, or marks the event log's pages all-visible, so the tables
// and their indexes grow with the work and every read walks more pages through PGlite's buffer
// pool. The server does autovacuum's job itself: every interval it reads the tables' counters
// and vacuums (and analyzes) the ones autovacuum would, with autovacuum's default thresholds.
// Postgres servers have their own autovacuum; this never runs there.
import "server-only";
import { type DatabaseHandle, getDatabase } from "@/db/client";
import { errorClass } from "@/lib/kernel/error-class";
import { processSingleton } from "@/lib/kernel/singleton";

/** How often the tables' counters are read; `WORKSTREAMS_VACUUM_INTERVAL_MS`, 0 turns it off. */
export function vacuumIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WORKSTREAMS_VACUUM_INTERVAL_MS;
  if (raw === undefined || raw === "") return 60_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`WORKSTREAMS_VACUUM_INTERVAL_MS must be a non-negative integer, got "${raw}".`);
  }
  return value;
}

type TableCounters = {
  table: string;
  live: number;
  dead: number;
  insertedSinceVacuum: number;
  modifiedSinceAnalyze: number;
};

export type MaintenancePass = { vacuumed: string[]; analyzed: string[] };

// Autovacuum's defaults (autovacuum_vacuum_threshold/scale_factor and their insert and analyze
// counterparts): a table is vacuumed once a fifth of it is dead, or once a fifth of it is new.
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;
const INSERT_BASE = 1_000;
const INSERT_SCALE = 0.2;
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;

type EmbeddedHandle = Extract<DatabaseHandle, { kind: "pglite" }>;

async function tableCounters(handle: EmbeddedHandle): Promise<TableCounters[]> {
  const { rows } = await handle.client.query<{
    table: string;
    live: number;
    dead: number;
    inserted: number;
    modified: number;
  }>(`
    select relname as "table", n_live_tup as live, n_dead_tup as dead,
           n_ins_since_vacuum as inserted, n_mod_since_analyze as modified
    from pg_stat_user_tables where schemaname = 'public'`);
  return rows.map((row) => ({
    table: row.table,
    live: Number(row.live),
    dead: Number(row.dead),
    insertedSinceVacuum: Number(row.inserted),
    modifiedSinceAnalyze: Number(row.modified),
  }));
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * One pass: vacuums the tables with enough dead or new rows and analyzes those with enough
 * changes since their last analyze. `force` vacuums and analyzes every table.
 */
export async function maintainTables(
  handle: EmbeddedHandle,
  { force = false }: { force?: boolean } = {},
): Promise<MaintenancePass> {
  const pass: MaintenancePass = { vacuumed: [], analyzed: [] };
  for (const t of await tableCounters(handle)) {
    const vacuum =
      force ||
      t.dead > VACUUM_BASE + VACUUM_SCALE * t.live ||
      t.insertedSinceVacuum > INSERT_BASE + INSERT_SCALE * t.live;
    const analyze = force || t.modifiedSinceAnalyze > ANALYZE_BASE + ANALYZE_SCALE * t.live;
    if (!vacuum && !analyze) continue;
    // VACUUM cannot run in a transaction; PGlite runs it between the app's transactions.
    const command = vacuum ? `vacuum${analyze ? " (analyze)" : ""}` : "analyze";
    await handle.client.exec(`${command} ${quoteIdent(t.table)}`);
    if (vacuum) pass.vacuumed.push(t.table);
    if (analyze) pass.analyzed.push(t.table);
  }
  return pass;
}

type State = { timer?: NodeJS.Timeout; running?: Promise<unknown> };
const state = processSingleton<State>("log-maintenance", () => ({}));

/** Starts the periodic pass on an embedded database (a no-op on Postgres, or with interval 0). */
export async function startLogMaintenance(intervalMs: number = vacuumIntervalMs()): Promise<void> {
  if (state.timer || intervalMs === 0) return;
  const handle = await getDatabase();
  if (handle.kind !== "pglite") return;
  state.timer = setInterval(() => {
    // One pass at a time: a slow one is not stacked on.
    if (state.running) return;
    state.running = maintainTables(handle)
      .catch((error: unknown) => {
        console.error(`[db] vacuum of the embedded database failed (${errorClass(error)})`);
      })
      .finally(() => {
        state.running = undefined;
      });
  }, intervalMs);
  state.timer.unref();
}

/** Stops the periodic pass and waits for one under way (before the database closes). */
export async function stopLogMaintenance(): Promise<void> {
  if (state.timer) clearInterval(state.timer);
  state.timer = undefined;
  await state.running;
}
