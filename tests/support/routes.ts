// Route matching and method discovery for the tests, on the routes ./route-files lists, so the
// access matrix and the test server can never drift from app/api.
import { existsSync } from "node:fs";
import path from "node:path";
import { autoImplementMethods } from "next/dist/server/route-modules/app-route/helpers/auto-implement-methods";
import { answersMethodNotAllowed, type RouteSchemas } from "@/lib/http/route-handlers";
import type { ApiRoute } from "./route-files";

export { type ApiRoute, listApiRoutes, listPages } from "./route-files";

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export function matchRoute(
  routes: ApiRoute[],
  pathname: string,
): { route: ApiRoute; params: Record<string, string | string[]> } | null {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  for (const route of routes) {
    const params: Record<string, string | string[]> = {};
    let matched = true;
    for (const [index, segment] of route.segments.entries()) {
      if (segment.kind === "catchAll") {
        const rest = parts.slice(index);
        if (rest.length === 0 && !segment.optional) matched = false;
        else if (rest.length > 0) params[segment.name] = rest;
        break;
      }
      const part = parts[index];
      if (part === undefined) {
        matched = false;
        break;
      }
      if (segment.kind === "static" && segment.name !== part) {
        matched = false;
        break;
      }
      if (segment.kind === "param") params[segment.name] = part;
    }
    const last = route.segments.at(-1);
    if (matched && last?.kind !== "catchAll" && parts.length !== route.segments.length)
      matched = false;
    if (matched) return { route, params };
  }
  return null;
}

/** The methods the route handles (not the ones it answers with 405). */
export async function routeMethods(route: ApiRoute): Promise<HttpMethod[]> {
  const mod = (await import(route.file)) as Record<string, unknown>;
  return HTTP_METHODS.filter(
    (method) => typeof mod[method] === "function" && !answersMethodNotAllowed(mod[method]),
  );
}

/** The methods Next.js answers with its own empty 405 for this route (none, when it is built right). */
export async function methodsLeftToNext(route: ApiRoute): Promise<HttpMethod[]> {
  const mod = (await import(route.file)) as Record<string, unknown>;
  return HTTP_METHODS.filter((method) => typeof mod[method] !== "function");
}

type NextHandler = (request: Request, context: unknown) => Promise<Response> | Response;

/**
 * The handler Next.js runs for `method`, chosen the way Next.js chooses it: an exported method,
 * HEAD from GET, a generated OPTIONS, or Next's own empty 405 for a method the module lacks.
 */
export function resolveHandler(mod: Record<string, unknown>, method: string): NextHandler {
  const methods = autoImplementMethods(mod as Parameters<typeof autoImplementMethods>[0]);
  const handler = (methods as Record<string, NextHandler | undefined>)[method];
  return handler ?? (() => new Response(null, { status: 400 }));
}

/** The schemas of the route's `schema.ts` (null when it has none). */
export async function routeSchemas(route: ApiRoute): Promise<RouteSchemas | null> {
  const file = path.join(path.dirname(route.file), "schema.ts");
  if (!existsSync(file)) return null;
  const mod = (await import(file)) as { schemas?: RouteSchemas };
  return mod.schemas ?? null;
}
