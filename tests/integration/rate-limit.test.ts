// The per-user turn rate limit in one server process: a burst of concurrent turns of one user,
// each in its own workstream, opens exactly the limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server";
import { signUp } from "../support/http-client";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";
import { groupWorkstreams, postAtOnce, tally } from "../support/turn-burst";

const LIMIT = 4;
let testDb: TestDatabase;
let server: AppServer;

beforeAll(async () => {
  testDb = await useTestDatabase();
  server = await startAppServer();
  process.env.WORKSTREAMS_RATE_LIMIT_TURNS = String(LIMIT);
});
afterAll(async () => {
  delete process.env.WORKSTREAMS_RATE_LIMIT_TURNS;
  await server?.close();
  await releaseTestDatabase(testDb);
});

describe("turn rate limit", () => {
  it("9.4 a burst of concurrent turns of one user opens exactly the limit", async () => {
    for (const burst of [LIMIT + 1, 2 * LIMIT]) {
      const user = await signUp(server.url, "Burst User");
      const workstreamIds = await groupWorkstreams(user, burst);
      const answers = await postAtOnce([user.client], workstreamIds);
      expect({ burst, ...tally(answers) }).toEqual({
        burst,
        accepted: LIMIT,
        refused: ["429 rate_limit:turn"],
      });
    }
  });
});
