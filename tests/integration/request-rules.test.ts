// Requests the API refuses before anything is written: cross-site and wrong-type requests,
// unknown fields, messages that show nothing, and text the database cannot store.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server";
import { type Owner, userMessage, userWithWorkstream } from "../support/fixtures";
import { HttpClient, type RequestOptions } from "../support/http-client";
import { listApiRoutes, routeMethods } from "../support/routes";
import { countRows } from "../support/row-counts";
import { readSse } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";

// Read by lib/config when it is first imported, which the hoisted block runs before.
vi.hoisted(() => {
  process.env.WORKSTREAMS_TRUSTED_ORIGINS = "https://trusted.example, http://localhost:5173";
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
});

type ErrorBody = { error: { code: string; field?: string; fields?: string[] } };

let testDb: TestDatabase;
let server: AppServer;
let alice: Owner;

beforeAll(async () => {
  testDb = await useTestDatabase();
  server = await startAppServer();
  alice = await userWithWorkstream(server.url, "Rules Alice");
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

const messagesPath = () => `/api/workstreams/${alice.workstreamId}/messages`;

/** Sends the request and asserts it changed no table; returns status and body. */
async function refused(path: string, init: RequestOptions, client: HttpClient = alice.client) {
  const before = await countRows();
  const response = await client.json<ErrorBody>(path, init);
  expect(await countRows()).toEqual(before);
  return { status: response.status, code: response.body?.error?.code, body: response.body };
}

describe("cross-site and wrong-type requests", () => {
  it("S8 a request from another site's page is refused with 403 forbidden:origin and writes nothing", async () => {
    const evil = "https://evil.example";
    expect(
      await refused(messagesPath(), {
        method: "POST",
        json: userMessage("[echo] from evil"),
        origin: evil,
      }),
    ).toMatchObject({ status: 403, code: "forbidden:origin" });
    expect(
      await refused("/api/workstreams", {
        method: "POST",
        json: { mode: "group" },
        origin: evil,
      }),
    ).toMatchObject({ status: 403, code: "forbidden:origin" });
    expect(
      await refused("/api/workstreams", {
        method: "POST",
        json: { mode: "group" },
        origin: "null",
      }),
    ).toMatchObject({ status: 403, code: "forbidden:origin" });
  });

  it("S8 reading is allowed from any origin (the browser's same-origin policy guards the answer)", async () => {
    const response = await alice.client.fetch("/api/me", { origin: "https://evil.example" });
    expect(response.status).toBe(200);
  });

  it("S8 an origin listed in WORKSTREAMS_TRUSTED_ORIGINS may change state", async () => {
    const response = await alice.client.json("/api/workstreams", {
      method: "POST",
      json: { mode: "group", title: "From the trusted origin" },
      origin: "https://trusted.example",
    });
    expect(response.status).toBe(201);
  });

  it("S8 a request without Origin (a non-browser client) is allowed", async () => {
    const response = await alice.client.json("/api/workstreams", {
      method: "POST",
      json: { mode: "group", title: "From curl" },
      origin: null,
    });
    expect(response.status).toBe(201);
  });

  it("S8 the origin a trusted proxy forwarded (X-Forwarded-Host/Proto) is the app's own", async () => {
    // Only with WORKSTREAMS_TRUST_PROXY=1 (tests/integration/trusted-proxy.test.ts has the case
    // without). Plain HTTP: a request the proxy marks HTTPS looks for the `__Secure-` cookie.
    process.env.WORKSTREAMS_TRUST_PROXY = "1";
    try {
      const response = await alice.client.json("/api/workstreams", {
        method: "POST",
        json: { mode: "group", title: "Behind a proxy" },
        origin: "http://workstreams.example",
        headers: { "x-forwarded-host": "workstreams.example", "x-forwarded-proto": "http" },
      });
      expect(response.status).toBe(201);
    } finally {
      delete process.env.WORKSTREAMS_TRUST_PROXY;
    }
  });

  it("S8 text/plain, form and multipart bodies are refused with 415 and start no turn", async () => {
    const body = JSON.stringify(userMessage("[echo] not json"));
    for (const type of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonp",
    ]) {
      expect({
        type,
        ...(await refused(messagesPath(), {
          method: "POST",
          body,
          headers: { "content-type": type },
        })),
      }).toMatchObject({ type, status: 415, code: "unsupported_media_type:body" });
    }
    // Bytes get no default type: a body without any content type.
    expect(
      await refused(messagesPath(), { method: "POST", body: new TextEncoder().encode(body) }),
    ).toMatchObject({ status: 415, code: "unsupported_media_type:body" });
  });

  it("S8 JSON with a charset is accepted and a bodyless POST may leave the type out", async () => {
    const sent = await alice.client.fetch(messagesPath(), {
      method: "POST",
      body: JSON.stringify(userMessage("[echo] with charset")),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(sent.status).toBe(200);
    await readSse(sent);
    const stop = await alice.client.json(`/api/workstreams/${alice.workstreamId}/stop`, {
      method: "POST",
    });
    expect(stop.status).toBe(200);
  });

  it("S8 every state-changing method of every API route checks origin and content type", async () => {
    const results: Record<string, { origin: number; type: number }> = {};
    const expected: typeof results = {};
    for (const route of listApiRoutes()) {
      // better-auth checks its own origins; Inngest is not a browser and signs its calls instead
      // (tests/integration/inngest-engine.test.ts: unsigned or forged calls get 401).
      // The fallback names nothing and writes nothing: every method is its 404 (access matrix).
      if (route.pattern.startsWith("/api/auth/") || route.pattern === "/api/inngest") continue;
      if (route.pattern === "/api/[[...rest]]") continue;
      const path = route.segments
        .map((segment) => (segment.kind === "static" ? segment.name : "x"))
        .join("/");
      for (const method of await routeMethods(route)) {
        if (method === "GET") continue;
        const key = `${method} ${route.pattern}`;
        const cross = await refused(`/${path}`, {
          method,
          json: {},
          origin: "https://evil.example",
        });
        const text = await refused(`/${path}`, {
          method,
          body: "{}",
          headers: { "content-type": "text/plain" },
        });
        results[key] = { origin: cross.status, type: text.status };
        expected[key] = { origin: 403, type: 415 };
      }
    }
    expect(Object.keys(results).length).toBeGreaterThan(10);
    expect(results).toEqual(expected);
  });
});

describe("strict bodies", () => {
  it("S8 an unknown field is refused with 400 bad_request:unknown_field naming it", async () => {
    const created = await refused("/api/workstreams", {
      method: "POST",
      json: { mode: "group", surprise: true },
    });
    expect(created).toMatchObject({ status: 400, code: "bad_request:unknown_field" });
    expect(created.body.error.field).toBe("surprise");

    const message = userMessage("[echo] hi");
    const nested = await refused(messagesPath(), {
      method: "POST",
      json: {
        message: { ...message.message, parts: [{ type: "text", text: "hi", extra: 1 }] },
      },
    });
    expect(nested).toMatchObject({ status: 400, code: "bad_request:unknown_field" });
    expect(nested.body.error.field).toBe("message.parts.0.extra");

    const bodyless = await refused(`/api/workstreams/${alice.workstreamId}/stop`, {
      method: "POST",
      json: { force: true },
    });
    expect(bodyless).toMatchObject({ status: 400, code: "bad_request:unknown_field" });
    expect(bodyless.body.error.field).toBe("force");
  });

  it("S8 a message of only zero-width, control and space characters is empty", async () => {
    const invisible = "\u200b\u200c\u200d\u2060\ufeff\u200e\u0001\u0007\u007f\u00a0\u3000 \t\n";
    expect(
      await refused(messagesPath(), { method: "POST", json: userMessage(invisible) }),
    ).toMatchObject({ status: 400, code: "bad_request:empty_message" });
  });
});

describe("text the database cannot store", () => {
  it("S3 a NUL in the workstream id answers 400 bad_request:text on every workstream route", async () => {
    const id = encodeURIComponent(`${alice.workstreamId}\u0000`);
    const requests: Array<[string, RequestOptions]> = [
      [`/api/workstreams/${id}`, {}],
      [`/api/workstreams/${id}/messages`, {}],
      [`/api/workstreams/${id}/messages`, { method: "POST", json: userMessage("[echo] hi") }],
      [`/api/workstreams/${id}/events?after=0`, {}],
      [`/api/workstreams/${id}/stop`, { method: "POST" }],
      [`/api/workstreams/${id}`, { method: "PATCH", json: { title: "x" } }],
      [`/api/admin/workstreams/${id}`, {}],
    ];
    for (const [path, init] of requests) {
      expect({ path, ...(await refused(path, init)) }).toMatchObject({
        path,
        status: 400,
        code: "bad_request:text",
      });
    }
  });

  it("S3 U+0000 or a lone surrogate in message text answers 400 and stores nothing", async () => {
    for (const text of ["nul \u0000 inside", "lone \ud800 high", "lone \udc00 low", "\u0000"]) {
      expect({
        text,
        ...(await refused(messagesPath(), { method: "POST", json: userMessage(text) })),
      }).toMatchObject({ text, status: 400, code: "bad_request:text" });
    }
  });

  it("S3 a history cursor beforeMessageId=%00 answers 400", async () => {
    expect(await refused(`${messagesPath()}?beforeMessageId=%00`, {})).toMatchObject({
      status: 400,
      code: "bad_request:text",
    });
  });

  it("S3 sign-up with a NUL or a lone surrogate in the name answers 400 and creates no user", async () => {
    const visitor = new HttpClient(server.url);
    for (const name of ["Nul\u0000Name", "Lone\ud800Name"]) {
      expect({
        name,
        ...(await refused(
          "/api/auth/sign-up/email",
          {
            method: "POST",
            json: {
              name,
              email: `nul.${Date.now()}@example.test`,
              password: "correct horse battery",
            },
          },
          visitor,
        )),
      }).toMatchObject({ name, status: 400, code: "bad_request:text" });
    }
  });
});
