// A fake Inngest API on 127.0.0.1 (the edge of the world for the Inngest engine): it records what
// the SDK sends (function registrations, events) and answers as Inngest would, or fails on demand.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type InngestRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
};

export type FakeInngest = {
  url: string;
  requests: InngestRequest[];
  /** While set, event sends answer this status. */
  failSendsWith: number | null;
  /** While set, event sends get no answer at all (an Inngest that hangs). */
  hangSends: boolean;
  close(): Promise<void>;
};

export async function startFakeInngest(): Promise<FakeInngest> {
  const requests: InngestRequest[] = [];
  const fake: Omit<FakeInngest, "url" | "close"> = {
    requests,
    failSendsWith: null,
    hangSends: false,
  };
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => {
      raw += chunk.toString("utf8");
    });
    req.on("end", () => {
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        // Kept as text: the test reads what was sent.
      }
      const path = req.url ?? "/";
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([key, value]) => [key, String(value)]),
      );
      requests.push({ method: req.method ?? "GET", path, headers, body });
      res.setHeader("content-type", "application/json");
      if (path.startsWith("/e/") && fake.hangSends) return;
      if (path.startsWith("/e/")) {
        const status = fake.failSendsWith ?? 200;
        const events = Array.isArray(body) ? body : [body];
        res.writeHead(status);
        res.end(
          status === 200
            ? JSON.stringify({ ids: events.map((_, i) => `evt_${i}`), status: 200 })
            : JSON.stringify({ error: "unavailable", status }),
        );
        return;
      }
      if (path.startsWith("/fn/register")) {
        res.writeHead(200);
        res.end(JSON.stringify({ ok: true, modified: true }));
        return;
      }
      res.writeHead(200);
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FakeInngest;
}
