// A DATABASE_URL may name the server's Unix-domain socket as libpq does (`?host=/socket/dir`):
// the app, its migrations and its statements then run over the socket, not loopback TCP.
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { createTestDatabase, type TestDatabase } from "../support/test-db";

let testDb: TestDatabase;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
});

/** The test cluster's first socket directory, read over TCP. */
async function socketDirectory(url: string): Promise<string> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin<Array<{ dirs: string }>>`
      select current_setting('unix_socket_directories') as dirs`;
    return (row?.dirs ?? "").split(",")[0]?.trim() ?? "";
  } finally {
    await admin.end({ timeout: 5 });
  }
}

async function serverAddress(db: DatabaseHandle): Promise<string | null> {
  const rows = (await db.db.execute(
    sql`select host(inet_server_addr()) as addr`,
  )) as unknown as Array<{ addr: string | null }>;
  return rows[0]?.addr ?? null;
}

describe("Postgres over its Unix-domain socket", () => {
  it("connects through the socket a DATABASE_URL names with ?host=, migrates and runs statements", async () => {
    const tcpUrl = testDb.url ?? "";
    const directory = await socketDirectory(tcpUrl);
    expect(directory.startsWith("/")).toBe(true);
    const socketUrl = new URL(tcpUrl);
    socketUrl.searchParams.set("host", directory);

    const tcp = await openDatabase({ kind: "postgres", url: tcpUrl, max: 1 });
    try {
      expect(await serverAddress(tcp)).toBe("127.0.0.1");
    } finally {
      await tcp.close();
    }

    handle = await openDatabase({ kind: "postgres", url: socketUrl.toString(), max: 1 });
    // A socket connection has no server address.
    expect(await serverAddress(handle)).toBeNull();
    // The migrations' own connection goes through the socket too (they are applied already:
    // this run finds nothing to do and must still connect and take its lock).
    await migrateDatabase(handle);
    const rows = (await handle.db.execute(
      sql`select count(*)::int as n from "workstreams"`,
    )) as unknown as Array<{ n: number }>;
    expect(rows[0]?.n).toBe(0);
  });
});
