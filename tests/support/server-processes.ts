// Server processes for multi-process tests, on a fresh copy of the test database: PGlite data
// dir or Postgres database, per TEST_DB_KIND. Registers its own beforeAll/afterAll.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type ChildServer, spawnServer } from "./child-server";
import type { Owner } from "./fixtures";
import type { HttpClient } from "./http-client";
import { createTestDatabase, type TestDatabase, testDbKind } from "./test-db";

export type History = {
  messages: Array<{
    id: string;
    role: string;
    parts: Array<{ type: string; text?: string }>;
    metadata: Record<string, unknown>;
  }>;
};

export function serverProcesses() {
  let dataDir = "";
  let testDb: TestDatabase | undefined;
  const env: Record<string, string> = {};
  const children: ChildServer[] = [];
  beforeAll(async () => {
    if (testDbKind() === "postgres") {
      testDb = await createTestDatabase();
      await testDb.handle.close();
      env.DATABASE_URL = testDb.url ?? "";
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), "ws-proc-"));
      env.PGLITE_DATA_DIR = path.join(dataDir, "pglite");
    }
  });
  afterAll(async () => {
    for (const child of children) await child.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await testDb?.drop();
  });
  return {
    env,
    /** A server on the shared database; `extra` adds settings for this process only. */
    async start(extra: Record<string, string> = {}): Promise<ChildServer> {
      const child = await spawnServer({ ...env, ...extra });
      children.push(child);
      return child;
    },
    async historyOf(owner: Owner, client: HttpClient = owner.client): Promise<History> {
      return (await client.json<History>(`/api/workstreams/${owner.workstreamId}/messages?take=20`))
        .body;
    },
  };
}
