// A signed-in session lives on while it is used: better-auth extends it once it is a day old.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { session } from "@/db/schema";
import { type AppServer, startAppServer } from "../support/app-server";
import { signUp } from "../support/http-client";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

const DAY_MS = 24 * 3600_000;

let testDb: TestDatabase;
let server: AppServer;

beforeAll(async () => {
  testDb = await useTestDatabase();
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

async function expiryOf(userId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ expiresAt: session.expiresAt })
    .from(session)
    .where(eq(session.userId, userId));
  if (!row) throw new Error("no session");
  return row.expiresAt.getTime();
}

describe("session extension", () => {
  it("a session used after a day is extended to a full week again", async () => {
    const user = await signUp(server.url, "Steady User");
    const db = await getDb();
    // Signed in two days ago: five days left of its week.
    await db
      .update(session)
      .set({ expiresAt: new Date(Date.now() + 5 * DAY_MS) })
      .where(eq(session.userId, user.userId));
    expect((await user.client.json("/api/me")).status).toBe(200);
    expect(await expiryOf(user.userId)).toBeGreaterThan(Date.now() + 6.9 * DAY_MS);
  });

  it("a session younger than a day is read without being written", async () => {
    const user = await signUp(server.url, "Fresh User");
    const before = await expiryOf(user.userId);
    expect((await user.client.json("/api/me")).status).toBe(200);
    expect(await expiryOf(user.userId)).toBe(before);
  });
});
