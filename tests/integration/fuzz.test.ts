// Arbitrary text in every input of every API route: each path parameter, query field and body
// field named by the route's `schema.ts` (and by the sign-in and sign-up bodies) gets arbitrary
// strings (any code point, U+0000, lone surrogates, 10,000 characters) while the other inputs
// keep valid values, so the arbitrary one travels as deep as the route lets it. Whatever comes
// back is below 500, a 4xx carries a JSON error code and writes no row to any table, and no
// answer shows a stack trace. `FUZZ_RUNS` sets the runs per route (100; 40 on Postgres), `FUZZ_SEED` the seed.
// Arbitrary bytes in the path (percent-encoding that is not UTF-8 included) are fuzzed in
// e2e/urls.spec.ts instead: only `next start` has Next's route matcher, which decodes them.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signedFilePath } from "@/lib/files/signing";
import type { MethodSchemas } from "@/lib/http/route-handlers";
import { isErrorCode } from "@/lib/kernel/errors";
import { addMemoryNote } from "@/lib/memory/block";
import { createMemory } from "@/lib/memory/store";
import { createSkill } from "@/lib/skills/store";
import { type AppServer, startAppServer } from "../support/app-server";
import { seedCompaction } from "../support/compactions";
import { type Owner, userMessage, userWithWorkstream } from "../support/fixtures";
import { HttpClient } from "../support/http-client";
import { type ApiRoute, listApiRoutes, routeMethods, routeSchemas } from "../support/routes";
import { countRows } from "../support/row-counts";
import { readSse } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";
import { pendingApproval } from "./workstreams-support/matrix";

vi.hoisted(() => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  // Valid messages start turns; the limit would turn later runs into 429s that test nothing.
  process.env.WORKSTREAMS_RATE_LIMIT_TURNS = "0";
});

// Validation happens before any query, so the second database gets fewer runs of other inputs
// (its own seed) rather than the same ones again: more of the input space over the two.
const ON_POSTGRES = process.env.TEST_DB_KIND === "postgres";
const RUNS = Number(process.env.FUZZ_RUNS || (ON_POSTGRES ? 40 : 100));
const SEED = Number(process.env.FUZZ_SEED || (ON_POSTGRES ? 4_111 : 9_003));
const LONG = 10_000;
// Node refuses a request line over 16 KB with its own 431 before any route code runs, so text
// that travels in the URL stays short enough to reach the route.
const URL_CHARS = 1_000;

type Sample = {
  params: Record<string, string | string[]>;
  query: Record<string, string>;
  body?: unknown;
};
type Field = { where: "params" | "query" | "body"; path: string[] };
type Context = {
  owner: Owner;
  groupId: string;
  memoryEntryId: string;
  /** the owner's own memory and skill, and an organization memory */
  memoryId: string;
  organizationMemoryId: string;
  skillId: string;
  compactionId: string;
  approval: { workstreamId: string; turnId: string; approvalId: string };
  /** an upload in the group workstream */
  fileId: string;
};

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((unit) => String.fromCharCode(unit));
const char = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constant("\u0000") },
  { weight: 2, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: fc.constantFrom(" ", "\u200b", "\ufeff", "/", "%", "?", "#", ".", '"') },
);
const shortText = fc.array(char, { maxLength: 40 }).map((chars) => chars.join(""));
const longText = fc
  .array(char, { minLength: 1, maxLength: 16 })
  .map((chars) => chars.join("").repeat(LONG).slice(0, LONG));
const arbitraryText = fc.oneof(
  { weight: 8, arbitrary: shortText },
  { weight: 1, arbitrary: longText },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: LONG, maxLength: LONG }) },
);

/** Valid values for the inputs that are not being fuzzed; a route without one uses "x" ids. */
const EXAMPLES: Record<string, (context: Context) => Partial<Sample>[]> = {
  "POST /api/auth/[...all]": ({ owner }) => [
    {
      params: { all: ["sign-in", "email"] },
      body: { email: owner.email, password: "correct horse battery", rememberMe: true },
    },
    {
      params: { all: ["sign-up", "email"] },
      body: {
        name: "Fuzz Person",
        email: `fuzz.${randomUUID().slice(0, 8)}@example.test`,
        password: "correct horse battery",
      },
    },
  ],
  "GET /api/auth/[...all]": () => [{ params: { all: ["get-session"] } }],
  "GET /api/live": () => [{ query: { scope: "user" } }],
  "GET /api/workstreams": () => [{ query: { mode: "group" } }],
  "POST /api/workstreams": () => [{ body: { mode: "group", title: "Fuzzed" } }],
  "PATCH /api/workstreams/[workstreamId]": () => [
    { body: { title: "Fuzzed" } },
    { body: { securityMode: "allowlist", allowlist: ["send_message"] } },
  ],
  "GET /api/workstreams/[workstreamId]/events": () => [{ query: { after: "0" } }],
  "POST /api/workstreams/[workstreamId]/messages": () => [{ body: userMessage("[echo] fuzz") }],
  "PATCH /api/workstreams/[workstreamId]/state": () => [
    {
      body: {
        delta: { keyDecisions: { add: [{ text: "Fuzzed", rationale: "why", confidence: 0.5 }] } },
      },
    },
  ],
  "POST /api/admin/invitations": () => [
    { body: { email: `invitee.${randomUUID().slice(0, 8)}@example.test`, role: "member" } },
  ],
  "PATCH /api/admin/members/[memberId]": () => [{ body: { role: "member" } }],
  "PUT /api/admin/tool-policy": () => [{ body: { rules: { send_message: "requires_approval" } } }],
  // A real note, so a fuzzed workstream id is tried against a note that exists elsewhere.
  // A real compaction, so a fuzzed cursor or take is tried against a range that exists.
  "GET /api/workstreams/[workstreamId]/compactions/[compactionId]/messages": ({ compactionId }) => [
    { params: { compactionId }, query: { take: "2" } },
  ],
  "DELETE /api/workstreams/[workstreamId]/memory-block/[entryId]": ({ memoryEntryId }) => [
    { params: { entryId: memoryEntryId } },
  ],
  // Real ids, so fuzzed fields travel as far as the store (a fuzzed id is another's or none).
  "GET /api/memories": () => [{ query: { scope: "mine", q: "harbor" } }],
  "PATCH /api/memories/[memoryId]": ({ memoryId }) => [
    { params: { memoryId }, body: { text: "Fuzzed fact", importance: 6 } },
  ],
  "DELETE /api/memories/[memoryId]": ({ memoryId }) => [{ params: { memoryId } }],
  "POST /api/memories/[memoryId]/share": ({ memoryId }) => [
    { params: { memoryId }, body: { confirm: true } },
  ],
  "GET /api/admin/memories": () => [{ query: { q: "harbor", limit: "10" } }],
  "POST /api/admin/memories": () => [{ body: { text: "Fuzzed organization fact", importance: 5 } }],
  "PATCH /api/admin/memories/[memoryId]": ({ organizationMemoryId }) => [
    { params: { memoryId: organizationMemoryId }, body: { text: "Fuzzed", importance: 5 } },
  ],
  "DELETE /api/admin/memories/[memoryId]": ({ organizationMemoryId }) => [
    { params: { memoryId: organizationMemoryId } },
  ],
  "PATCH /api/skills/[skillId]": ({ skillId }) => [
    {
      params: { skillId },
      body: { name: "Fuzzed skill", whenToUse: "When fuzzing.", steps: ["One", "Two"] },
    },
  ],
  "DELETE /api/skills/[skillId]": ({ skillId }) => [{ params: { skillId } }],
  // A real upload and a valid signature, so each fuzzed part is tried beside valid ones.
  "GET /api/workstreams/[workstreamId]/files/[fileId]": ({ fileId }) => [
    { params: { fileId }, query: { download: "1" } },
  ],
  "GET /api/files/[fileId]": ({ fileId }) => {
    const signed = new URL(signedFilePath(fileId, { ttlMs: 3_600_000 }), "http://x");
    return [{ params: { fileId }, query: Object.fromEntries(signed.searchParams) }];
  },
  "POST /api/skills/[skillId]/share": ({ skillId }) => [
    { params: { skillId }, body: { confirm: true } },
  ],
  // A real approval in its own workstream (answered before the fuzzing, so that a valid answer
  // is a 409 that writes nothing, and nothing runs behind the counts): each fuzzed id is tried
  // next to real ones.
  "POST /api/workstreams/[workstreamId]/turns/[turnId]/approvals/[approvalId]": ({ approval }) => [
    { params: { ...approval }, body: { approved: false, reason: "fuzz" } },
  ],
  // The inspector of a real turn: each fuzzed id is tried next to the real other one.
  "GET /api/workstreams/[workstreamId]/turns/[turnId]": ({ approval }) => [
    { params: { workstreamId: approval.workstreamId, turnId: approval.turnId } },
  ],
  "GET /api/admin/workstreams/[workstreamId]/turns/[turnId]": ({ approval }) => [
    { params: { workstreamId: approval.workstreamId, turnId: approval.turnId } },
  ],
};

let testDb: TestDatabase;
let server: AppServer;
let context: Context;

async function answeredApproval(owner: Owner): Promise<Context["approval"]> {
  const approval = await pendingApproval(owner);
  await owner.client.fetch(
    `/api/workstreams/${approval.workstreamId}/turns/${approval.turnId}/approvals/${approval.approvalId}`,
    { method: "POST", json: { approved: false } },
  );
  for (;;) {
    const described = await owner.client.json<{ activeTurn: unknown }>(
      `/api/workstreams/${approval.workstreamId}`,
    );
    if (described.body.activeTurn === null) return approval;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function uploadFixture(owner: Owner, workstreamId: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob(["x,y\n1,2\n"]), "fuzz.csv");
  const response = await owner.client.json<{ id: string }>(
    `/api/workstreams/${workstreamId}/files`,
    { method: "POST", body: form },
  );
  if (response.status !== 201) throw new Error(`upload failed: ${response.status}`);
  return response.body.id;
}

beforeAll(async () => {
  testDb = await useTestDatabase();
  server = await startAppServer();
  const owner = await userWithWorkstream(server.url, "Fuzz Owner");
  const group = await owner.client.json<{ id: string }>("/api/workstreams", {
    method: "POST",
    json: { mode: "group", title: "Fuzz target" },
  });
  const note = await addMemoryNote({
    workstreamId: group.body.id,
    organizationId: owner.organizationId,
    ownerId: owner.userId,
    role: "member",
    text: "Fuzz note",
  });
  const scope = { organizationId: owner.organizationId };
  const { memory } = await createMemory({ ...scope, ownerId: owner.userId, text: "Fuzz fact" });
  const { memory: shared } = await createMemory({ ...scope, ownerId: null, text: "Fuzz org fact" });
  const { skill } = await createSkill({
    ...scope,
    ownerId: owner.userId,
    name: "Fuzz skill",
    whenToUse: "When fuzzing.",
    steps: ["One", "Two"],
  });
  const { compactionId } = await seedCompaction({
    workstreamId: group.body.id,
    organizationId: owner.organizationId,
  });
  context = {
    owner,
    groupId: group.body.id,
    memoryEntryId: note.entry.id,
    memoryId: memory.id,
    organizationMemoryId: shared.id,
    skillId: skill.id,
    compactionId,
    approval: await answeredApproval(owner),
    fileId: await uploadFixture(owner, group.body.id),
  };
});
afterAll(async () => {
  await server?.close();
  await releaseTestDatabase(testDb);
});

type ZodDef = {
  type: string;
  shape?: Record<string, { _zod: { def: ZodDef } }>;
  element?: { _zod: { def: ZodDef } };
  innerType?: { _zod: { def: ZodDef } };
  in?: { _zod: { def: ZodDef } };
};

/** The paths of the string-carrying leaves a schema names (objects, arrays' first element). */
function leafPaths(schema: unknown): string[][] {
  if (!schema || typeof schema !== "object" || !("_zod" in schema)) return [];
  const walk = (def: ZodDef, path: string[]): string[][] => {
    if (def.type === "object" && def.shape) {
      return Object.entries(def.shape).flatMap(([key, child]) =>
        walk(child._zod.def, [...path, key]),
      );
    }
    if (def.type === "array" && def.element) return walk(def.element._zod.def, [...path, "0"]);
    const inner = def.innerType ?? def.in;
    if (inner) return walk(inner._zod.def, path);
    return path.length > 0 ? [path] : [];
  };
  return walk((schema as { _zod: { def: ZodDef } })._zod.def, []);
}

function valueLeafPaths(value: unknown, path: string[] = []): string[][] {
  if (Array.isArray(value))
    return value.flatMap((item, i) => valueLeafPaths(item, [...path, String(i)]));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => valueLeafPaths(item, [...path, key]));
  }
  return path.length > 0 ? [path] : [];
}

function fieldsOf(route: ApiRoute, spec: MethodSchemas, example: Partial<Sample>): Field[] {
  const fields: Field[] = [];
  const seen = new Set<string>();
  const add = (where: Field["where"], path: string[]) => {
    const key = `${where}:${path.join(".")}`;
    if (seen.has(key)) return;
    seen.add(key);
    fields.push({ where, path });
  };
  for (const segment of route.segments) {
    if (segment.kind !== "static") add("params", [segment.name]);
  }
  for (const path of leafPaths(spec.query)) add("query", path.slice(0, 1));
  for (const path of Object.keys(example.query ?? {})) add("query", [path]);
  for (const path of leafPaths(spec.body)) add("body", path);
  for (const path of valueLeafPaths(example.body)) add("body", path);
  return fields;
}

function withValue(value: unknown, path: string[], text: string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return text;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(head)] = withValue(copy[Number(head)], rest, text);
    return copy;
  }
  const object = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  return { ...object, [head]: withValue(object[head], rest, text) };
}

/** As a browser would put it in a URL: a lone surrogate has no UTF-8 form, so it becomes U+FFFD. */
function urlText(text: string): string {
  return encodeURIComponent(text.slice(0, URL_CHARS).replace(LONE_SURROGATE, "\ufffd"));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function requestFor(route: ApiRoute, sample: Sample): string {
  const path = route.segments.map((segment) => {
    if (segment.kind === "static") return segment.name;
    const value = sample.params[segment.name] ?? "x";
    return Array.isArray(value) ? value.map(urlText).join("/") : urlText(value);
  });
  const query = Object.entries(sample.query)
    .map(([key, value]) => `${encodeURIComponent(key)}=${urlText(value)}`)
    .join("&");
  return `/${path.join("/")}${query ? `?${query}` : ""}`;
}

type Case = {
  name: string;
  route: ApiRoute;
  method: string;
  fields: Field[];
  sample: () => Sample;
};

async function casesOf(route: ApiRoute): Promise<Case[]> {
  // Without a schema (the first test fails then) the path and the examples are still fuzzed.
  const schemas = await routeSchemas(route);
  const cases: Case[] = [];
  for (const method of await routeMethods(route)) {
    const spec: MethodSchemas = schemas?.[method] ?? {};
    const key = `${method} ${route.pattern}`;
    const examples = EXAMPLES[key] ?? (() => [{}]);
    examples(context).forEach((example, index) => {
      cases.push({
        name: examples(context).length > 1 ? `${key} #${index + 1}` : key,
        route,
        method,
        fields: fieldsOf(route, spec, example),
        sample: () => {
          const fresh: Partial<Sample> = examples(context)[index] ?? {};
          const params: Record<string, string | string[]> = {};
          for (const segment of route.segments) {
            if (segment.kind === "param") {
              params[segment.name] = segment.name === "workstreamId" ? context.groupId : "x";
            }
          }
          return {
            params: { ...params, ...fresh.params },
            query: { ...fresh.query },
            body: fresh.body ?? (method === "GET" ? undefined : {}),
          };
        },
      });
    });
  }
  return cases;
}

let knownCounts: Record<string, number> | undefined;

const STACK_TRACE = /\n\s+at\s|\bat [\w.<>]+ \(|node_modules|\.ts:\d+/;

async function exercise(testCase: Case, field: Field, text: string): Promise<void> {
  const sample = testCase.sample();
  if (field.where === "params") {
    const [name = ""] = field.path;
    sample.params[name] = Array.isArray(sample.params[name]) ? [text] : text;
  } else if (field.where === "query") {
    sample.query[field.path[0] ?? ""] = text;
  } else {
    sample.body = withValue(sample.body, field.path, text);
  }
  const isAuth = testCase.route.pattern.startsWith("/api/auth/");
  // better-auth's sign-up signs the client in: every auth request starts without a session.
  const client = isAuth ? new HttpClient(server.url) : context.owner.client;
  // A refused request wrote nothing, so its counts are the next request's "before".
  const before = knownCounts ?? (await countRows());
  knownCounts = undefined;
  const response = await client.fetch(requestFor(testCase.route, sample), {
    method: testCase.method,
    json: sample.body,
  });
  const label = `${testCase.name} ${field.where}.${field.path.join(".")} = ${JSON.stringify(text.slice(0, 80))}…`;
  expect(response.status, label).toBeLessThan(500);
  if (response.headers.get("content-type")?.includes("text/event-stream")) {
    await readSse(response, testCase.route.pattern === "/api/live" ? { limit: 1 } : {});
    return;
  }
  const raw = await response.text();
  // An answer may echo the fuzzed text (a renamed title); only the rest could be a stack trace.
  expect(raw.replaceAll(JSON.stringify(text).slice(1, -1), ""), label).not.toMatch(STACK_TRACE);
  if (response.status < 400) return;
  const body = JSON.parse(raw) as { error?: { code?: unknown }; code?: unknown };
  // better-auth answers its own refusals as `{ code, message }`; everything else is ours.
  const code = body.error?.code ?? (isAuth ? body.code : undefined);
  expect(
    typeof code === "string" && (isAuth || isErrorCode(code)),
    `${label} code ${String(code)}`,
  ).toBe(true);
  const after = await countRows();
  expect(after, label).toEqual(before);
  knownCounts = after;
}

describe("fuzz: arbitrary text in every input of every route", () => {
  const routes = listApiRoutes();

  it("S3 every API route names its inputs in a schema.ts beside it", async () => {
    const missing: string[] = [];
    for (const route of routes) {
      const schemas = await routeSchemas(route);
      for (const method of await routeMethods(route)) {
        if (!schemas?.[method]) missing.push(`${method} ${route.pattern}`);
      }
    }
    expect(missing).toEqual([]);
  });

  for (const route of routes) {
    it(`S3 ${route.pattern} answers arbitrary text in any input below 500, with a code and nothing written`, async () => {
      const cases = await casesOf(route);
      for (const testCase of cases) {
        if (testCase.fields.length === 0) continue;
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...testCase.fields),
            arbitraryText,
            async (field, text) => exercise(testCase, field, text),
          ),
          { numRuns: RUNS, seed: SEED },
        );
      }
    });
  }
});
