// Foundation: sign-up, sessions, organizations and bad input at the HTTP edge.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server";
import { HttpClient, signUp } from "../support/http-client";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

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

describe("sign-up", () => {
  it("creates the user's own organization with them as owner", async () => {
    const user = await signUp(server.url, "Olive Owner");
    const me = await user.client.json<{
      organization: { id: string; name: string; role: string };
      organizations: Array<{ id: string }>;
    }>("/api/me");
    expect(me.status).toBe(200);
    expect(me.body.organization.name).toBe("Olive Owner's organization");
    expect(me.body.organization.role).toBe("owner");
    expect(me.body.organizations.map((org) => org.id)).toEqual([me.body.organization.id]);
  });

  it("refuses an existing email with a stable code", async () => {
    const user = await signUp(server.url, "Dup Licate");
    const again = await new HttpClient(server.url).json<{ code: string }>(
      "/api/auth/sign-up/email",
      {
        method: "POST",
        json: { name: "Again", email: user.email, password: "another good password" },
      },
    );
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
    expect(again.body.code).toMatch(/USER_ALREADY_EXISTS/);
  });

  it("refuses a weak password with a stable code", async () => {
    const client = new HttpClient(server.url);
    const short = await client.json<{ code: string }>("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Weak", email: "weak1@example.test", password: "short" },
    });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe("PASSWORD_TOO_SHORT");
    const common = await client.json<{ code: string }>("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Weak", email: "weak2@example.test", password: "password123" },
    });
    expect(common.status).toBe(400);
    expect(common.body.code).toBe("PASSWORD_TOO_WEAK");
  });

  it("answers malformed JSON with a 4xx JSON error, not a 500", async () => {
    const client = new HttpClient(server.url);
    const response = await client.fetch("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await response.text()).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});

describe("sessions", () => {
  it("a missing session gets 401 unauthorized:auth", async () => {
    const response = await new HttpClient(server.url).json<{ error: { code: string } }>("/api/me");
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("unauthorized:auth");
  });

  it("signs out and back in; a wrong password is refused", async () => {
    const user = await signUp(server.url, "Sam Session");
    const out = await user.client.fetch("/api/auth/sign-out", { method: "POST", json: {} });
    expect(out.status).toBe(200);
    expect((await user.client.json("/api/me")).status).toBe(401);
    const wrong = await user.client.json<{ code: string }>("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: user.email, password: "not the password" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("INVALID_EMAIL_OR_PASSWORD");
    const right = await user.client.json("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: user.email, password: "correct horse battery" },
    });
    expect(right.status).toBe(200);
    const me = await user.client.json<{ organization: { id: string } }>("/api/me");
    expect(me.status).toBe(200);
    expect(me.body.organization.id).toBe(user.organizationId);
  });

  it("H2 a signed-out session's cookie stops working on the very next request", async () => {
    const user = await signUp(server.url, "Copy Cat");
    const copy = user.client.at(server.url); // the same cookies, kept by someone else
    expect((await copy.json("/api/me")).status).toBe(200);
    await user.client.fetch("/api/auth/sign-out", { method: "POST", json: {} });
    expect((await copy.json("/api/me")).status).toBe(401);
  });

  it("H2 a session cookie with a forged signature is signed out", async () => {
    const forged = new HttpClient(server.url);
    const response = await forged.json("/api/me", {
      headers: {
        cookie: "better-auth.session_token=abc.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%3D",
      },
    });
    expect(response.status).toBe(401);
  });

  it("cannot switch into an organization the user is not a member of", async () => {
    const alice = await signUp(server.url, "Alice");
    const bob = await signUp(server.url, "Bob");
    const response = await bob.client.json("/api/auth/organization/set-active", {
      method: "POST",
      json: { organizationId: alice.organizationId },
    });
    expect(response.status).toBe(403);
    const me = await bob.client.json<{ organization: { id: string } }>("/api/me");
    expect(me.body.organization.id).toBe(bob.organizationId);
  });
});
