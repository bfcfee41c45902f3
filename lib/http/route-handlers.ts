// How an API route module is built (see ./README.md): its `schema.ts` declares, per method, the
// zod schemas of what the method reads (path params, query, body), and `route.ts` hands them with
// the handlers to `routeHandlers()`, which parses every input before the handler runs and
// exports every HTTP method Next.js knows. Methods the route does not handle answer 405
// `method_not_allowed:method` with an `Allow` header: Next.js would answer an unexported method
// with an empty 405 of its own, so a route module exports them all.
import { z } from "zod";
import { AppError } from "@/lib/kernel/errors";
import { type FieldCodes, parseInput, parseQuery } from "./parse";
import { errorResponse, parseJson, readBodyText, route } from "./respond";

/** Every method Next.js routes to a route module (its HTTP_METHODS). */
export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
/** The methods a route declares; HEAD follows GET and OPTIONS lists what is allowed. */
export type HandledMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type MethodSchemas = {
  /** Path parameters as Next.js gives them (a catch-all is an array of segments). */
  params?: z.ZodType;
  /** Query parameters, one string per name (the last of a repeated name). */
  query?: z.ZodType;
  /** The JSON body. A method without one takes no fields: a body other than `{}` is refused. */
  body?: z.ZodType;
  /** Codes for fields that have their own (`{ title: "bad_request:title" }`), see ./parse. */
  codes?: FieldCodes;
  /** Largest body accepted (default 256 KiB). */
  maxBodyBytes?: number;
  /**
   * A multipart body (a file upload): left unread for the handler to stream, and it must be
   * `multipart/form-data` instead of JSON.
   */
  multipart?: true;
};

/** What a route's `schema.ts` exports as `schemas`: one entry per method the route handles. */
export type RouteSchemas = { readonly [M in HandledMethod]?: MethodSchemas };

type Parsed<S, K extends "params" | "query" | "body"> = S extends { [P in K]: infer Z }
  ? Z extends z.ZodType
    ? z.output<Z>
    : undefined
  : undefined;

/** What a handler receives: the request and its inputs, already parsed. */
export type RouteInput<S> = {
  request: Request;
  params: Parsed<S, "params">;
  query: Parsed<S, "query">;
  body: Parsed<S, "body">;
};

type NextContext = { params: Promise<Record<string, string | string[]>> };
export type NextRouteHandler = (request: Request, context: NextContext) => Promise<Response>;
export type RouteExports = Record<HttpMethod, NextRouteHandler>;

const NO_FIELDS = z.strictObject({});

/**
 * The exports of a route module: each method in `schemas` parses its inputs, then runs its
 * handler inside `route()` (request rules, typed errors); every other method answers 405.
 */
export function routeHandlers<const S extends RouteSchemas>(
  schemas: S,
  handlers: { [M in keyof S]: (input: RouteInput<S[M]>) => Promise<Response> },
): RouteExports {
  const handled: Partial<Record<HandledMethod, NextRouteHandler>> = {};
  for (const method of Object.keys(schemas) as Array<keyof S & HandledMethod>) {
    const spec: MethodSchemas = schemas[method] ?? {};
    const handle = handlers[method] as (input: RouteInput<MethodSchemas>) => Promise<Response>;
    handled[method] = route(
      async (request: Request, context: NextContext) => {
        const codes = spec.codes ?? {};
        const params = spec.params
          ? parseInput(spec.params, await context.params, codes)
          : undefined;
        const query = spec.query ? parseQuery(spec.query, request, codes) : undefined;
        const body = spec.multipart ? undefined : await readBody(request, spec);
        return handle({ request, params, query, body } as RouteInput<MethodSchemas>);
      },
      { body: spec.multipart ? "multipart" : "json" },
    );
  }
  return withAllMethods(handled);
}

async function readBody(request: Request, spec: MethodSchemas): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const text = await readBodyText(request, spec.maxBodyBytes);
  if (spec.body) return parseInput(spec.body, parseJson(text), spec.codes);
  if (text.trim()) parseInput(NO_FIELDS, parseJson(text));
  return undefined;
}

const NOT_ALLOWED = Symbol("method not allowed");

/** Fills in every method `handlers` lacks: HEAD runs GET, OPTIONS lists, the rest answer 405. */
export function withAllMethods(
  handlers: Partial<Record<HandledMethod, NextRouteHandler>>,
): RouteExports {
  const allowed = HTTP_METHODS.filter(
    (method) =>
      method === "OPTIONS" ||
      (method === "HEAD" ? handlers.GET !== undefined : handlers[method] !== undefined),
  );
  const allow = [...allowed].sort().join(", ");
  const notAllowed: NextRouteHandler = Object.assign(
    async () =>
      errorResponse(
        new AppError("method_not_allowed:method", {
          details: { allow: allowed },
          headers: { Allow: allow },
        }),
      ),
    { [NOT_ALLOWED]: true },
  );
  const options: NextRouteHandler = async () =>
    new Response(null, { status: 204, headers: { Allow: allow } });
  return {
    GET: handlers.GET ?? notAllowed,
    HEAD: handlers.GET ?? notAllowed,
    OPTIONS: options,
    POST: handlers.POST ?? notAllowed,
    PUT: handlers.PUT ?? notAllowed,
    PATCH: handlers.PATCH ?? notAllowed,
    DELETE: handlers.DELETE ?? notAllowed,
  };
}

/** True for the handlers `withAllMethods` puts in place of a method the route does not handle. */
export function answersMethodNotAllowed(handler: unknown): boolean {
  return typeof handler === "function" && NOT_ALLOWED in handler;
}
