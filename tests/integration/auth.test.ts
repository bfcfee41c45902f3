// Foundation: sign-up, sessions, organizations and bad input at the HTTP edge.
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { member, messages, session, turnRateLimits, turns } from "@/db/schema";
import { type AppServer, startAppServer } from "../support/app-server";
import { userMessage, userWithWorkstream } from "../support/fixtures";
import { HttpClient, setActiveOrganization, signUp } from "../support/http-client";
import { readSse, statuses } from "../support/sse";
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

describe("the turn's POST, whose opening statement checks the session", () => {
  type Answer = [number, string | undefined];
  async function answer(client: HttpClient, path: string, init: RequestInit & { json?: unknown }) {
    const response = await client.json<{ error?: { code: string } }>(path, init);
    return [response.status, response.body?.error?.code] as Answer;
  }
  /** The POST's answer, and the GET's on the same workstream (its session checked on its own). */
  async function both(client: HttpClient, workstreamId: string, text = "hello") {
    const path = `/api/workstreams/${workstreamId}/messages`;
    return {
      post: await answer(client, path, { method: "POST", json: userMessage(text) }),
      get: await answer(client, path, {}),
    };
  }

  it("W1 refuses each caller with the status and code of the other routes, and writes nothing", async () => {
    const owner = await userWithWorkstream(server.url, "Opening Owner");
    const db = await getDb();
    const join = async (name: string) => {
      const user = await signUp(server.url, name);
      await db.insert(member).values({
        id: crypto.randomUUID(),
        organizationId: owner.organizationId,
        userId: user.userId,
        role: "member",
      });
      await setActiveOrganization(user, owner.organizationId);
      return user;
    };
    const colleague = await join("Opening Colleague");
    const leaver = await join("Opening Leaver");
    const own = await leaver.client.json<{ id: string }>("/api/workstreams", {
      method: "POST",
      json: { mode: "direct", agentId: "chief" },
    });
    expect(own.status).toBe(201);
    const outsider = await signUp(server.url, "Opening Outsider");
    const expired = await signUp(server.url, "Opening Expired");
    await db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(session.userId, expired.userId));
    const signedOut = await signUp(server.url, "Opening Signed Out");
    const copy = signedOut.client.at(server.url);
    await signedOut.client.fetch("/api/auth/sign-out", { method: "POST", json: {} });
    const forged = new HttpClient(server.url);
    const forgedCookie = {
      cookie: "better-auth.session_token=abc.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%3D",
    };

    const unauthorized: Answer = [401, "unauthorized:auth"];
    const notFound: Answer = [404, "not_found:workstream"];
    const cases = {
      noCookie: await both(new HttpClient(server.url), owner.workstreamId),
      forged: {
        post: await answer(forged, `/api/workstreams/${owner.workstreamId}/messages`, {
          method: "POST",
          headers: forgedCookie,
          json: userMessage("hello"),
        }),
        get: await answer(forged, `/api/workstreams/${owner.workstreamId}/messages`, {
          headers: forgedCookie,
        }),
      },
      signedOut: await both(copy, owner.workstreamId),
      expired: await both(expired.client, owner.workstreamId),
      colleague: await both(colleague.client, owner.workstreamId),
      outsider: await both(outsider.client, owner.workstreamId),
    };
    expect(cases).toEqual({
      noCookie: { post: unauthorized, get: unauthorized },
      forged: { post: unauthorized, get: unauthorized },
      signedOut: { post: unauthorized, get: unauthorized },
      expired: { post: unauthorized, get: unauthorized },
      colleague: { post: notFound, get: notFound },
      outsider: { post: notFound, get: notFound },
    });
    // An empty message is refused for a signed-in member only: a stranger learns nothing.
    expect((await both(new HttpClient(server.url), owner.workstreamId, " ")).post).toEqual(
      unauthorized,
    );
    expect((await both(owner.client, owner.workstreamId, " ")).post).toEqual([
      400,
      "bad_request:empty_message",
    ]);
    // A removed member loses their own workstream on the very next request.
    await db.delete(member).where(eq(member.userId, leaver.userId));
    const forbidden: Answer = [403, "forbidden:organization"];
    expect(await both(leaver.client, own.body.id)).toEqual({ post: forbidden, get: forbidden });

    const callers = [owner, colleague, leaver, outsider, expired, signedOut].map((u) => u.userId);
    const written = async () => ({
      turns: await db.$count(turns, inArray(turns.workstreamId, [owner.workstreamId, own.body.id])),
      messages: await db.$count(
        messages,
        inArray(messages.workstreamId, [owner.workstreamId, own.body.id]),
      ),
      rateLimits: await db.$count(turnRateLimits, inArray(turnRateLimits.userId, callers)),
    });
    expect(await written()).toEqual({ turns: 0, messages: 0, rateLimits: 0 });
    // The owner's own turn goes through, and is the only thing written.
    const sent = await owner.client.fetch(`/api/workstreams/${owner.workstreamId}/messages`, {
      method: "POST",
      json: userMessage("[echo] mine"),
    });
    expect(sent.status).toBe(200);
    expect(statuses((await readSse(sent)).events).at(-1)).toBe("ready");
    expect(await written()).toEqual({ turns: 1, messages: 2, rateLimits: 1 });
  });
});
