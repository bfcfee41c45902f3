// The embedded database has no autovacuum: the server vacuums the tables its turns leave dead
// rows in, and the event log reads and resumes the same afterwards. Its Postgres runs with a
// buffer pool sized for the app, which an operator can change.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, parsePgliteSettings } from "@/db/client";
import { flushEventLog } from "@/lib/stream/event-log";
import {
  maintainTables,
  startLogMaintenance,
  stopLogMaintenance,
} from "@/lib/stream/log-maintenance";
import { type AppServer, startAppServer } from "../support/app-server";
import { type Owner, send, userWithWorkstream } from "../support/fixtures";
import { readSse, type SseEvent, statuses, textOf } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

let testDb: TestDatabase;
let server: AppServer;

beforeAll(async () => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  testDb = await useTestDatabase();
  server = await startAppServer();
});
afterAll(async () => {
  await stopLogMaintenance();
  await server?.close();
  await releaseTestDatabase(testDb);
});

type Counters = { dead: number; vacuums: number };

/**
 * The backend reports its table statistics lazily: counts of dead rows from earlier statements
 * could land after a vacuum and read as rows it left. Flushed first, they count where they belong.
 */
async function flushStats(): Promise<void> {
  await testDb.handle.db.execute(sql`select pg_stat_force_next_flush()`);
  await testDb.handle.db.execute(sql`select 1`);
}

async function counters(table: string): Promise<Counters> {
  await flushStats();
  const result = await testDb.handle.db.execute<{ dead: number; vacuums: number }>(sql`
    select n_dead_tup::int as dead, vacuum_count::int as vacuums
    from pg_stat_user_tables where relname = ${table}`);
  const row = (result as unknown as { rows: Counters[] }).rows[0];
  return { dead: Number(row?.dead ?? 0), vacuums: Number(row?.vacuums ?? 0) };
}

async function replay(owner: Owner, after: number): Promise<SseEvent[]> {
  const response = await owner.client.fetch(
    `/api/workstreams/${owner.workstreamId}/events?after=${after}`,
  );
  expect(response.status).toBe(200);
  return (await readSse(response)).events;
}

/** `count` turns, over the workstreams of three users (one user may start 30 turns a minute). */
async function turns(owner: Owner, count: number): Promise<void> {
  const owners = [
    owner,
    await userWithWorkstream(server.url, "Second Tester"),
    await userWithWorkstream(server.url, "Third Tester"),
  ];
  for (let i = 0; i < count; i++) {
    const { events } = await readSse(
      await send(owners[i % owners.length] ?? owner, `note ${i}: keep it short [words:7]`),
    );
    expect(statuses(events).at(-1)).toBe("ready");
  }
  await flushEventLog();
}

describe("vacuum of the embedded database", () => {
  it("H4 turns leave dead rows that a pass vacuums away, and the log replays and resumes the same after", async () => {
    const owner = await userWithWorkstream(server.url);
    await turns(owner, 40);
    const before = await counters("turns");
    expect(before.dead).toBeGreaterThan(0);

    const logBefore = await replay(owner, 0);
    expect(logBefore.length).toBeGreaterThan(40 * 3);
    const middle = logBefore[Math.floor(logBefore.length / 2)]?.offset ?? 0;

    if (testDb.handle.kind !== "pglite") throw new Error("an embedded database only");
    const pass = await maintainTables(testDb.handle, { force: true });
    expect(pass.vacuumed).toContain("turns");
    const after = await counters("turns");
    expect(after.dead).toBe(0);
    expect(after.vacuums).toBe(before.vacuums + 1);

    // Every event is still there, in order, from the start and from the middle.
    const logAfter = await replay(owner, 0);
    expect(logAfter).toEqual(logBefore);
    expect(await replay(owner, middle)).toEqual(logBefore.filter((e) => (e.offset ?? 0) > middle));
    // And the next turn continues the offsets where the log ended.
    const { events } = await readSse(await send(owner, "one more [words:7]"));
    expect(textOf(events).split(/\s+/).length).toBeGreaterThan(0);
    expect(events.find((e) => e.offset !== null)?.offset).toBe((logAfter.at(-1)?.offset ?? 0) + 1);
  });

  it("H4 the server's periodic pass vacuums without being asked", async () => {
    const owner = await userWithWorkstream(server.url, "Periodic");
    await turns(owner, 60);
    // The first test's turns and these are over autovacuum's thresholds in `turns`.
    const before = await counters("turns");
    await startLogMaintenance(20);
    for (let i = 0; i < 200 && (await counters("turns")).vacuums === before.vacuums; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await stopLogMaintenance();
    const after = await counters("turns");
    expect(after.vacuums).toBeGreaterThan(before.vacuums);
    expect(after.dead).toBeLessThan(before.dead);
    // Turns go on as before.
    await turns(owner, 1);
  });
});

describe("the embedded database's settings", () => {
  it("H4 the buffer pool is small by default and PGLITE_SETTINGS overrides a setting", async () => {
    const handle = await openDatabase({
      kind: "pglite",
      dataDir: "memory://",
      lock: false,
      settings: parsePgliteSettings("work_mem=2MB, shared_buffers=24MB"),
    });
    const defaults = await openDatabase({ kind: "pglite", dataDir: "memory://", lock: false });
    try {
      const show = async (db: typeof handle, name: string) => {
        const result = await db.db.execute<{ value: string }>(
          sql`select current_setting(${name}) as value`,
        );
        return (result as unknown as { rows: Array<{ value: string }> }).rows[0]?.value;
      };
      expect(await show(defaults, "shared_buffers")).toBe("16MB");
      expect(await show(handle, "shared_buffers")).toBe("24MB");
      expect(await show(handle, "work_mem")).toBe("2MB");
    } finally {
      await handle.close();
      await defaults.close();
    }
    expect(() => parsePgliteSettings("shared_buffers")).toThrow(/PGLITE_SETTINGS/);
  });
});
