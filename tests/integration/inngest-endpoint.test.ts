// /api/inngest without Inngest configured: the embedded runner runs the functions, so the route
// introspects (GET) but neither registers (PUT) nor runs steps (POST).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOBS } from "@/inngest/functions";
import { type AppServer, startAppServer } from "../support/app-server";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

let testDb: TestDatabase;
let server: AppServer;

beforeAll(async () => {
  for (const name of [
    "INNGEST_EVENT_KEY",
    "INNGEST_SIGNING_KEY",
    "INNGEST_BASE_URL",
    "INNGEST_DEV",
  ])
    delete process.env[name];
  testDb = await useTestDatabase();
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

describe("/api/inngest without Inngest", () => {
  it("J1 GET introspects with each declared function and its failure handler, as Inngest counts them", async () => {
    const response = await fetch(`${server.url}/api/inngest`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { function_count: number };
    expect(body.function_count).toBe(2 * JOBS.length);
  });

  it("J1 PUT and POST answer 404 not_found:inngest, never a 5xx", async () => {
    for (const method of ["PUT", "POST"]) {
      const response = await fetch(`${server.url}/api/inngest?fnId=x&stepId=step`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ event: {}, steps: {} }),
      });
      expect({ method, status: response.status, body: await response.json() }).toEqual({
        method,
        status: 404,
        body: { error: { code: "not_found:inngest", message: "Inngest is not configured." } },
      });
    }
  });
});
