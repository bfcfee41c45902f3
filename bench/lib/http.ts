// A lean HTTP client for the benchmark (node:http, keep-alive, no fetch overhead): cookie-keeping
// JSON calls, and a turn that POSTs a message and times its SSE stream event by event.
import http from "node:http";
import { performance } from "node:perf_hooks";

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

export type JsonResponse<T> = { status: number; body: T; headers: http.IncomingHttpHeaders };

/** The timeline of one turn as the client saw it, in ms since the request was sent. */
export type TurnTiming = {
  status: number;
  /** Response headers arrived. */
  headersMs: number;
  /** First SSE event of any kind. */
  firstEventMs: number;
  /** First `text-delta` event: the "first text byte". */
  firstTextMs: number;
  /** Arrival time of every text-delta event. */
  textMs: number[];
  /** Arrival time of every event (any chunk type). */
  eventMs: number[];
  doneMs: number;
  textChars: number;
  events: number;
  /** Arrival of each event type's first occurrence, for breakdowns. */
  firstOf: Record<string, number>;
  /** The last event id (the log offset) in the stream, 0 when none. */
  lastId: number;
  /** The turn's id (the answer's x-turn-id header), when it has one. */
  turnId?: string;
  /** The approvals the turn asked for (`tool-approval-request` events), in order. */
  approvalIds?: string[];
  error?: string;
  body?: string;
};

export class Client {
  private cookies = new Map<string, string>();
  readonly origin: string;
  private readonly host: string;
  private readonly port: number;

  /**
   * @param forwardedFor the address this simulated user comes from, sent as `x-forwarded-for`
   *   (as a reverse proxy would): better-auth rate-limits sign-ups per client address.
   */
  constructor(
    readonly baseUrl: string,
    readonly forwardedFor?: string,
  ) {
    const url = new URL(baseUrl);
    if (url.hostname !== "127.0.0.1") throw new Error("the benchmark only talks to 127.0.0.1");
    this.origin = url.origin;
    this.host = url.hostname;
    this.port = Number(url.port);
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  cookieList(): Array<{ name: string; value: string }> {
    return [...this.cookies].map(([name, value]) => ({ name, value }));
  }

  private keepCookies(headers: http.IncomingHttpHeaders): void {
    for (const cookie of headers["set-cookie"] ?? []) {
      const [pair] = cookie.split(";");
      const index = pair?.indexOf("=") ?? -1;
      if (!pair || index < 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === "" || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private options(method: string, path: string, body?: string): http.RequestOptions {
    const headers: http.OutgoingHttpHeaders = { origin: this.origin, accept: "*/*" };
    if (this.forwardedFor) headers["x-forwarded-for"] = this.forwardedFor;
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(body);
    }
    return { host: this.host, port: this.port, method, path, headers, agent };
  }

  json<T = unknown>(
    method: string,
    path: string,
    payload?: unknown,
    timeoutMs = 60_000,
  ): Promise<JsonResponse<T>> {
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    return new Promise((resolve, reject) => {
      const req = http.request(this.options(method, path, body), (res) => {
        this.keepCookies(res.headers);
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed as T, headers: res.headers });
        });
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on("error", reject);
      req.end(body);
    });
  }

  /** Times a GET to its last byte; returns [ms, status]. */
  timedGet(
    path: string,
    timeoutMs = 30_000,
  ): Promise<{ ms: number; status: number; bytes: number }> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request(this.options("GET", path), (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("error", reject);
        res.on("end", () =>
          resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, bytes }),
        );
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`GET ${path} timed out`)));
      req.on("error", reject);
      req.end();
    });
  }

  /** POSTs `payload` and reads the SSE answer to `[DONE]` (or the end), timing every event. */
  streamTurn(
    path: string,
    payload: unknown,
    timeoutMs = 120_000,
    onHeaders?: (status: number) => void,
  ): Promise<TurnTiming> {
    return this.stream("POST", path, JSON.stringify(payload), timeoutMs, onHeaders);
  }

  /** GETs an SSE stream (a follower: `…/events?after=N`), timed like a turn. */
  follow(path: string, timeoutMs = 120_000): Promise<TurnTiming> {
    return this.stream("GET", path, undefined, timeoutMs);
  }

  private stream(
    method: "GET" | "POST",
    path: string,
    body: string | undefined,
    timeoutMs: number,
    onHeaders?: (status: number) => void,
  ): Promise<TurnTiming> {
    return new Promise((resolve) => {
      const timing: TurnTiming = {
        status: 0,
        headersMs: Number.NaN,
        firstEventMs: Number.NaN,
        firstTextMs: Number.NaN,
        textMs: [],
        eventMs: [],
        doneMs: Number.NaN,
        textChars: 0,
        events: 0,
        firstOf: {},
        lastId: 0,
      };
      let settled = false;
      const finish = (error?: string) => {
        if (settled) return;
        settled = true;
        if (error) timing.error = error;
        resolve(timing);
      };
      const started = performance.now();
      const req = http.request(this.options(method, path, body), (res) => {
        const now = performance.now() - started;
        timing.status = res.statusCode ?? 0;
        timing.headersMs = now;
        const turnId = res.headers["x-turn-id"];
        if (typeof turnId === "string") timing.turnId = turnId;
        this.keepCookies(res.headers);
        onHeaders?.(timing.status);
        const isSse = String(res.headers["content-type"] ?? "").includes("text/event-stream");
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          const at = performance.now() - started;
          if (!isSse || timing.status >= 300) {
            timing.body = (timing.body ?? "") + chunk;
            return;
          }
          buffer += chunk;
          let index = buffer.indexOf("\n\n");
          while (index >= 0) {
            const block = buffer.slice(0, index);
            buffer = buffer.slice(index + 2);
            index = buffer.indexOf("\n\n");
            let data = "";
            for (const line of block.split("\n")) {
              if (line.startsWith("data: ")) data += line.slice(6);
              else if (line.startsWith("id: "))
                timing.lastId = Number(line.slice(4)) || timing.lastId;
            }
            if (!data) continue;
            if (data === "[DONE]") {
              timing.doneMs = at;
              continue;
            }
            timing.events++;
            timing.eventMs.push(at);
            if (Number.isNaN(timing.firstEventMs)) timing.firstEventMs = at;
            let event: { type?: string; delta?: string; approvalId?: string };
            try {
              event = JSON.parse(data) as { type?: string; delta?: string; approvalId?: string };
            } catch {
              continue;
            }
            const type = event.type ?? "?";
            timing.firstOf[type] ??= at;
            if (type === "tool-approval-request" && event.approvalId) {
              timing.approvalIds = [...(timing.approvalIds ?? []), event.approvalId];
            }
            if (type === "text-delta") {
              if (Number.isNaN(timing.firstTextMs)) timing.firstTextMs = at;
              timing.textMs.push(at);
              timing.textChars += event.delta?.length ?? 0;
            }
          }
        });
        res.on("error", (error) => finish(error.message));
        res.on("end", () => {
          if (Number.isNaN(timing.doneMs)) timing.doneMs = performance.now() - started;
          if (timing.status >= 300)
            finish(`HTTP ${timing.status}: ${(timing.body ?? "").slice(0, 300)}`);
          else if (Number.isNaN(timing.firstTextMs)) finish("no text-delta in the stream");
          else finish();
        });
      });
      req.setTimeout(timeoutMs, () => {
        req.destroy();
        finish(`turn timed out after ${timeoutMs} ms`);
      });
      req.on("error", (error) => finish(error.message));
      req.end(body);
    });
  }
}

export function closeIdleSockets(): void {
  agent.destroy();
}
