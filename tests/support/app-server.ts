// A plain Node HTTP server that serves the app's real route handlers (app/api/**/route.ts) with
// the same Request/Response objects Next.js gives them. Integration tests talk HTTP to it, in
// this process or as separate child processes (two servers on one Postgres, kill -9).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { type ApiRoute, listApiRoutes, matchRoute, resolveHandler } from "./routes";

type RouteHandler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

export type AppServer = { url: string; server: Server; close(): Promise<void> };

export async function startAppServer(port = 0): Promise<AppServer> {
  const routes = listApiRoutes();
  const modules = new Map<string, Record<string, unknown>>();
  const load = async (route: ApiRoute) => {
    let mod = modules.get(route.file);
    if (!mod) {
      mod = (await import(route.file)) as Record<string, unknown>;
      modules.set(route.file, mod);
    }
    return mod;
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("[test-server]", error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "internal:test_server" } }));
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    const match = matchRoute(routes, url.pathname);
    if (!match) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "not_found:route" } }));
      return;
    }
    const mod = await load(match.route);
    // Next.js picks the handler (and answers unexported methods) the same way.
    const handler = resolveHandler(mod, req.method ?? "GET") as RouteHandler;
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(key, item);
      else if (value !== undefined) headers.set(key, value);
    }
    const request = new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      duplex: "half",
      signal: controller.signal,
    } as RequestInit);
    const response = await handler(request, { params: Promise.resolve(match.params) });
    const outHeaders: Record<string, string | string[]> = {};
    response.headers.forEach((value, key) => {
      if (key !== "set-cookie") outHeaders[key] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) outHeaders["set-cookie"] = cookies;
    res.writeHead(response.status, outHeaders);
    if (!response.body) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    controller.signal.addEventListener("abort", () => {
      reader.cancel().catch(() => undefined);
    });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } finally {
      res.end();
    }
  };
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
