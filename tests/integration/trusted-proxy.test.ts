// X-Forwarded-* headers are a client's word unless WORKSTREAMS_TRUST_PROXY=1 says a reverse
// proxy sets them: they then decide the sign-in rate limit's bucket and the origin requests are
// checked against; without the flag neither moves. (better-auth skips its own origin check under
// NODE_ENV=test; lib/http/request-rules.test.ts shows its trusted origin follows the same rule.)
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetAuth } from "@/lib/auth/auth";
import { type AppServer, startAppServer } from "../support/app-server";
import { HttpClient, type SignedUpUser, signUp } from "../support/http-client";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

vi.hoisted(() => {
  // better-auth limits sign-in only in production builds unless told to.
  process.env.WORKSTREAMS_AUTH_RATE_LIMIT = "1";
  delete process.env.WORKSTREAMS_TRUST_PROXY;
  delete process.env.BETTER_AUTH_URL;
});

let testDb: TestDatabase;
let server: AppServer;
let user: SignedUpUser;

beforeAll(async () => {
  testDb = await useTestDatabase();
  server = await startAppServer();
  user = await signUp(server.url, "Proxy Pat");
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});
afterEach(() => {
  delete process.env.WORKSTREAMS_TRUST_PROXY;
  resetAuth();
});

function trustProxy() {
  process.env.WORKSTREAMS_TRUST_PROXY = "1";
  resetAuth();
}

let attempt = 0;
/** A sign-in with a wrong password (a new email each time), from the given X-Forwarded-For. */
async function wrongSignIn(forwardedFor: string): Promise<number> {
  attempt += 1;
  const response = await new HttpClient(server.url).fetch("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "x-forwarded-for": forwardedFor },
    json: { email: `nobody.${attempt}@example.test`, password: "not the password" },
  });
  await response.arrayBuffer();
  return response.status;
}

describe("the sign-in rate limit's client address", () => {
  it("UI2 without WORKSTREAMS_TRUST_PROXY a client cannot escape the sign-in limit by sending a new X-Forwarded-For each time", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push(await wrongSignIn(`198.51.100.${i}`));
    // better-auth allows 3 sign-in attempts per 10 s per bucket; all five share one.
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });

  it("UI2 with WORKSTREAMS_TRUST_PROXY=1 each client address the proxy reports gets its own bucket", async () => {
    trustProxy();
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push(await wrongSignIn(`203.0.113.${i}`));
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
  });

  it("UI2 with WORKSTREAMS_TRUST_PROXY=1 the address is the proxy's (last) entry, not what the client put before it", async () => {
    trustProxy();
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++) statuses.push(await wrongSignIn(`10.9.9.${i}, 192.0.2.77`));
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe("origin checks and forwarded headers", () => {
  // A page served by a proxy at another host than the one the app listens on. (Plain HTTP: a
  // request the proxy marks HTTPS would look for the `__Secure-` session cookie, which this test
  // client, signed up over HTTP, does not have.)
  const publicSite = {
    origin: "http://workstreams.example",
    headers: { "x-forwarded-host": "workstreams.example", "x-forwarded-proto": "http" },
  };

  it("UI2 without WORKSTREAMS_TRUST_PROXY a request cannot make its Origin the app's by sending X-Forwarded-Host", async () => {
    const api = await user.client.json<{ error: { code: string } }>("/api/workstreams", {
      method: "POST",
      json: { mode: "group" },
      ...publicSite,
    });
    expect(api.status).toBe(403);
    expect(api.body.error.code).toBe("forbidden:origin");
  });

  it("UI2 with WORKSTREAMS_TRUST_PROXY=1 the proxy's X-Forwarded-Host and -Proto name the app's origin", async () => {
    trustProxy();
    const api = await user.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "group" },
      ...publicSite,
    });
    expect(api.status).toBe(201);
  });
});
