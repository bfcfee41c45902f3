// Addresses the router itself has to answer, tried against `next start` (the integration tests'
// server is not Next, so only here does a request meet Next's own route matcher): malformed
// percent-encoding in any path, paths under /api/ that name no route, and arbitrary bytes in every
// dynamic segment of every API route and page. Requests go out raw through node:http, because a
// client's URL parser would resolve dot segments before the server saw them.
// `FUZZ_RUNS` sets the runs per route (20), `FUZZ_SEED` the seed.
import { request as httpRequest } from "node:http";
import fc from "fast-check";
import { type ApiRoute, listApiRoutes, listPages } from "../tests/support/route-files";
import { DEMO } from "./support/auth";
import { clientAddress, expect, test } from "./support/fixtures";

const RUNS = Number(process.env.FUZZ_RUNS || 20);
const SEED = Number(process.env.FUZZ_SEED || 3_905);
/** A lone surrogate written as UTF-8, a byte no UTF-8 has, an overlong "/", a cut-off "€". */
const MALFORMED = ["%ED%A0%80", "%FF", "%C0%AF", "%E2%82"];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

type RawAnswer = { status: number; type: string; location: string | undefined; body: string };

let origin = "";

/** One request with the path exactly as written. */
function raw(
  path: string,
  options: { method?: string; cookie?: string; body?: string } = {},
): Promise<RawAnswer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? "GET",
        // A connection per request: a kept-alive one the server has just timed out hangs up.
        agent: false,
        headers: {
          origin,
          "x-forwarded-for": clientAddress(),
          ...(options.cookie ? { cookie: options.cookie } : {}),
          // Node sends a DELETE's or OPTIONS's body without framing unless told its length.
          ...(options.body === undefined
            ? {}
            : {
                "content-type": "application/json",
                "content-length": String(Buffer.byteLength(options.body)),
              }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            type: response.headers["content-type"] ?? "",
            location: response.headers.location,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

function codeOf(answer: RawAnswer): string | undefined {
  if (!answer.type.includes("application/json")) return undefined;
  return (JSON.parse(answer.body) as { error?: { code?: string } }).error?.code;
}

/** The route's path with `value` in its `at`-th dynamic segment and "x" in the others. */
function pathWith(route: ApiRoute, at: number, value: string): string {
  let dynamic = -1;
  const parts = route.segments.map((segment) => {
    if (segment.kind === "static") return segment.name;
    dynamic += 1;
    return dynamic === at ? value : "x";
  });
  return `/${parts.join("/")}`;
}

function dynamicCount(route: ApiRoute): number {
  return route.segments.filter((segment) => segment.kind !== "static").length;
}

/** Every address a malformed value can take in `routes`: each dynamic segment, or past the end. */
function malformedPaths(routes: ApiRoute[]): string[] {
  const paths = new Set<string>();
  for (const route of routes) {
    for (const bad of MALFORMED) {
      const count = dynamicCount(route);
      if (count === 0) paths.add(`${route.pattern === "/" ? "" : route.pattern}/x${bad}`);
      for (let at = 0; at < count; at += 1) paths.add(pathWith(route, at, `x${bad}`));
    }
  }
  return [...paths];
}

test.beforeAll(({ baseURL }) => {
  origin = baseURL ?? "";
});

test("S3 malformed percent-encoding in any API path answers 400 bad_request:path in JSON, before routing", async () => {
  const actual: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const path of malformedPaths(listApiRoutes())) {
    const answer = await raw(path);
    actual[path] = { status: answer.status, code: codeOf(answer) };
    expected[path] = { status: 400, code: "bad_request:path" };
  }
  expect(Object.keys(actual)).toContain("/api/workstreams/x%ED%A0%80/messages");
  expect(actual).toEqual(expected);
});

test("S3 malformed percent-encoding in a page's address shows the app's not-found page with a 404", async () => {
  const actual: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const path of malformedPaths(listPages())) {
    const answer = await raw(path);
    actual[path] = { status: answer.status, page: answer.body.includes("Page not found") };
    expected[path] = { status: 404, page: true };
  }
  expect(Object.keys(actual)).toContain("/w/x%ED%A0%80");
  expect(actual).toEqual(expected);
});

test("S3 every path under /api/ that names no route answers 404 not_found:route in JSON, for every method", async () => {
  const paths = [
    "/api",
    "/api/",
    "/api/nonexistent",
    "/api/nonexistent/",
    "/api/workstreams/%2E%2E/messages",
    "/api/workstreams/%2E%2E",
    "/api/workstreams/..",
    "/api/workstreams/x/nope",
    "/api/me/extra/deeper",
  ];
  const actual: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const path of paths) {
    for (const method of METHODS) {
      const answer = await raw(path, { method, body: method === "POST" ? "{}" : undefined });
      const key = `${method} ${path}`;
      actual[key] = { status: answer.status, code: method === "HEAD" ? null : codeOf(answer) };
      expected[key] = { status: 404, code: method === "HEAD" ? null : "not_found:route" };
    }
  }
  expect(actual).toEqual(expected);
});

test("a page's address with a trailing slash redirects once to the address without it", async () => {
  const answers = await Promise.all(["/sign-in/", "/w/x/?a=1"].map((path) => raw(path)));
  expect(
    answers.map(({ status, location }) => ({
      status,
      location: location && new URL(location, origin).href,
    })),
  ).toEqual([
    { status: 308, location: `${origin}/sign-in` },
    { status: 308, location: `${origin}/w/x?a=1` },
  ]);
});

test("S3 arbitrary bytes, percent-encoded, in any dynamic segment of any API route or page answer below 500", async ({
  request,
}) => {
  test.setTimeout(180_000);
  const signIn = await request.post("/api/auth/sign-in/email", {
    data: { email: DEMO.member.email, password: DEMO.password },
    headers: { origin },
  });
  expect(signIn.status()).toBe(200);
  const { cookies } = await request.storageState();
  const cookie = cookies.map(({ name, value }) => `${name}=${value}`).join("; ");
  const bytes = fc.oneof(
    fc.uint8Array({ minLength: 1, maxLength: 12 }),
    fc.string({ unit: "binary", minLength: 1, maxLength: 6 }).map((text) => Buffer.from(text)),
  );
  const encoded = bytes.map((values) =>
    [...values].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
  );
  const routes = [...listApiRoutes(), ...listPages()].filter((route) => dynamicCount(route) > 0);
  for (const route of routes) {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: dynamicCount(route) - 1 }),
        encoded,
        fc.constantFrom(...METHODS),
        async (at, value, method) => {
          const path = pathWith(route, at, value);
          const withBody = method !== "GET" && method !== "HEAD";
          const answer = await raw(path, { method, cookie, body: withBody ? "{}" : undefined });
          expect(answer.status, `${method} ${path}`).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  }
});
