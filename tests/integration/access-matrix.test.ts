// The access matrix: every API route and method of the app, with the status each kind of caller
// gets. A route without an entry fails this test, so every new route has to join it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { member } from "@/db/schema";
import { signedFilePath } from "@/lib/files/signing";
import { type AppServer, startAppServer } from "../support/app-server";
import { userMessage } from "../support/fixtures";
import {
  HttpClient,
  type SignedUpUser,
  setActiveOrganization,
  signUp,
} from "../support/http-client";
import { listApiRoutes, methodsLeftToNext, routeMethods } from "../support/routes";
import { readSse } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";
import {
  anySignedIn,
  buildWorkstreamFixture,
  type Entry,
  type Fixture,
  ownerOnly,
  PERSONAS,
  type Persona,
  WORKSTREAM_ENTRIES,
} from "./workstreams-support/matrix";
import { buildMemoryFixture, MEMORY_ENTRIES } from "./workstreams-support/memory-matrix";

const EXEMPT: Record<string, string> = {
  "GET /api/auth/[...all]": "better-auth's own routes",
  "POST /api/auth/[...all]": "better-auth's own routes",
};

const FALLBACK = "/api/[[...rest]]";

const MATRIX: Record<string, Entry> = {
  "GET /api/me": { expected: anySignedIn(200), path: () => "/api/me" },
  "POST /api/workstreams": {
    expected: anySignedIn(201),
    path: () => "/api/workstreams",
    body: () => ({ mode: "direct", agentId: "chief" }),
  },
  "GET /api/workstreams/[workstreamId]": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}`,
  },
  "GET /api/workstreams/[workstreamId]/messages": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/messages`,
  },
  "POST /api/workstreams/[workstreamId]/messages": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/messages`,
    body: () => userMessage("[echo] matrix"),
  },
  "GET /api/workstreams/[workstreamId]/events": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/events?after=0`,
  },
  "POST /api/workstreams/[workstreamId]/stop": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/stop`,
    body: () => ({}),
  },
  ...WORKSTREAM_ENTRIES,
  ...MEMORY_ENTRIES,
  "POST /api/workstreams/[workstreamId]/files": {
    expected: ownerOnly(201),
    path: (f) => `/api/workstreams/${f.workstreamId}/files`,
    form: () => {
      const form = new FormData();
      form.append("file", new Blob(["a,b\n1,2\n"]), "matrix.csv");
      return form;
    },
  },
  "GET /api/workstreams/[workstreamId]/files/[fileId]": {
    expected: { ...ownerOnly(302) },
    path: (f) => `/api/workstreams/${f.workstreamId}/files/${f.files?.fileId}`,
  },
  "DELETE /api/workstreams/[workstreamId]/files/[fileId]": {
    expected: ownerOnly(200),
    path: (f) => `/api/workstreams/${f.workstreamId}/files/${f.files?.removableFileId}`,
  },
  // A signed URL needs no session: whoever holds it reads the file until it expires.
  "GET /api/files/[fileId]": {
    expected: everyone(200),
    path: (f) => signedFilePath(f.files?.fileId ?? "", { ttlMs: 600_000 }),
  },
  // Inngest's endpoint is Inngest's, not a member's: no session is read. Without Inngest
  // configured (as here) GET introspects and PUT/POST answer 404 `not_found:inngest`, "Inngest is
  // not configured"; with it, the SDK refuses any call not signed with the signing key (401).
  "GET /api/inngest": { expected: everyone(200), path: () => "/api/inngest" },
  "PUT /api/inngest": { expected: everyone(404), path: () => "/api/inngest" },
  "POST /api/inngest": {
    expected: everyone(404),
    path: () => "/api/inngest?fnId=workstreams-title-generation&stepId=step",
    body: () => ({}),
  },
  // The API's fallback: a path under /api/ that names no route is a JSON 404 for every method,
  // whoever asks.
  ...Object.fromEntries(
    ["GET", "POST", "PUT", "PATCH", "DELETE"].map((method) => [
      `${method} ${FALLBACK}`,
      {
        expected: everyone(404),
        path: (f: Fixture) => `/api/workstreams/${f.workstreamId}/nonexistent`,
        ...(method === "GET" ? {} : { body: () => ({}) }),
      },
    ]),
  ),
};

async function uploadCsv(user: SignedUpUser, workstreamId: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob(["x,y\n1,2\n"]), "fixture.csv");
  const response = await user.client.json<{ id: string }>(
    `/api/workstreams/${workstreamId}/files`,
    {
      method: "POST",
      body: form,
    },
  );
  if (response.status !== 201) throw new Error(`upload failed: ${response.status}`);
  return response.body.id;
}

function everyone(status: number): Record<Persona, number> {
  return Object.fromEntries(PERSONAS.map((persona) => [persona, status])) as Record<
    Persona,
    number
  >;
}

let testDb: TestDatabase;
let server: AppServer;
let fixture: Fixture;
const clients = {} as Record<Persona, HttpClient>;

async function joinOrganization(user: SignedUpUser, organizationId: string, role: string) {
  const db = await getDb();
  await db
    .insert(member)
    .values({ id: crypto.randomUUID(), organizationId, userId: user.userId, role });
  await setActiveOrganization(user, organizationId);
}

beforeAll(async () => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  testDb = await useTestDatabase();
  server = await startAppServer();
  const owner = await signUp(server.url, "Matrix Owner");
  const orgId = owner.organizationId;
  const [admin, memberUser, anotherMember, otherOrg] = await Promise.all([
    signUp(server.url, "Matrix Admin"),
    signUp(server.url, "Matrix Member"),
    signUp(server.url, "Matrix Colleague"),
    signUp(server.url, "Matrix Outsider"),
  ]);
  await joinOrganization(admin, orgId, "admin");
  await joinOrganization(memberUser, orgId, "member");
  await joinOrganization(anotherMember, orgId, "member");
  const created = await memberUser.client.json<{ id: string }>("/api/workstreams", {
    method: "POST",
    json: { mode: "direct", agentId: "chief" },
  });
  fixture = {
    ...(await buildWorkstreamFixture({
      baseUrl: server.url,
      owner,
      memberUser,
      otherOrg,
      workstreamId: created.body.id,
    })),
    memory: await buildMemoryFixture({ organizationId: orgId, memberUser }),
  };
  fixture.files = {
    fileId: await uploadCsv(memberUser, created.body.id),
    removableFileId: await uploadCsv(memberUser, created.body.id),
  };
  Object.assign(clients, {
    owner: owner.client,
    admin: admin.client,
    member: memberUser.client,
    anotherMember: anotherMember.client,
    otherOrg: otherOrg.client,
    signedOut: new HttpClient(server.url),
  });
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

describe("access matrix", () => {
  it("has an entry for every API route and method", async () => {
    const missing: string[] = [];
    for (const route of listApiRoutes()) {
      for (const method of await routeMethods(route)) {
        const key = `${method} ${route.pattern}`;
        if (!MATRIX[key] && !EXEMPT[key]) missing.push(key);
      }
    }
    expect(missing).toEqual([]);
  });

  it("S9 every route answers a method it does not handle with a JSON 405 naming the allowed ones", async () => {
    const actual: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    // The fallback handles every method (its rows above): there is no route to allow one.
    for (const route of listApiRoutes().filter((route) => route.pattern !== FALLBACK)) {
      const handled = await routeMethods(route);
      const allow = [...handled, ...(handled.includes("GET") ? ["HEAD"] : []), "OPTIONS"].sort();
      const path = `/${route.segments
        .map((segment) => (segment.kind === "static" ? segment.name : "x"))
        .join("/")}`;
      actual[`${route.pattern} left to Next.js`] = await methodsLeftToNext(route);
      expected[`${route.pattern} left to Next.js`] = [];
      for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]) {
        if (
          handled.some((name) => name === method) ||
          (method === "HEAD" && handled.includes("GET"))
        )
          continue;
        const key = `${method} ${route.pattern}`;
        const response = await clients.owner.fetch(path, { method });
        const text = await response.text();
        // A HEAD answer has no body to carry the code.
        const code =
          method === "HEAD"
            ? null
            : (JSON.parse(text || "{}") as { error?: { code?: string } }).error?.code;
        actual[key] = { status: response.status, code, allow: response.headers.get("allow") };
        expected[key] = {
          status: 405,
          code: method === "HEAD" ? null : "method_not_allowed:method",
          allow: allow.join(", "),
        };
      }
      const options = await clients.owner.fetch(path, { method: "OPTIONS" });
      actual[`OPTIONS ${route.pattern}`] = {
        status: options.status,
        allow: options.headers.get("allow"),
      };
      expected[`OPTIONS ${route.pattern}`] = { status: 204, allow: allow.join(", ") };
    }
    expect(actual).toEqual(expected);
  });

  for (const [key, entry] of Object.entries(MATRIX)) {
    it(`${key} answers each caller as the matrix says`, async () => {
      const [method] = key.split(" ");
      const actual = {} as Record<Persona, number>;
      for (const persona of PERSONAS) {
        const form = entry.form?.();
        const response = await clients[persona].fetch(entry.path(fixture, persona), {
          method,
          redirect: "manual",
          ...(form ? { body: form } : { json: entry.body?.(fixture, persona) }),
        });
        actual[persona] = response.status;
        if (response.headers.get("content-type")?.includes("text/event-stream"))
          await readSse(response, entry.endless ? { limit: 1 } : {});
        else await response.text();
      }
      expect(actual).toEqual(entry.expected);
    });
  }
});
