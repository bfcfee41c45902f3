// The servers under test, each a child process on 127.0.0.1: the app (`next start` on the
// production build, PGlite or Postgres) and the bare baseline. Knows which process in the tree
// actually serves (holds the listening socket), for CPU and RSS readings.
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { REPO } from "./app-build";
import { spawnTracked, stopChild } from "./children";
import { listeningPid, processTree } from "./procfs";

export type ServerKind = "pglite" | "postgres" | "baseline";

export type Server = {
  kind: ServerKind;
  url: string;
  port: number;
  child: ChildProcess;
  /** The process that serves HTTP (for `next start` the next-server process). */
  pid: number;
  tree: Array<{ pid: number; name: string }>;
  startMs: number;
  output(): string;
  /** Statements the app traced (`WORKSTREAMS_SQL_TRACE=1`, `[sql] …` on stderr), in order. */
  sql: SqlTrace;
  stop(): Promise<void>;
};

/** The `[sql]` lines of a server started with `trace`; they are kept out of `output()`. */
export class SqlTrace {
  /** Statements seen so far. */
  count = 0;
  private recording: string[] | null = null;
  private partial = "";

  /** Feeds raw server output; returns its complete lines that are not traced statements. */
  take(text: string): string {
    const lines = (this.partial + text).split("\n");
    this.partial = lines.pop() ?? "";
    const rest: string[] = [];
    for (const line of lines) {
      if (line.startsWith("[sql] ")) {
        this.count++;
        this.recording?.push(line.slice(6));
      } else rest.push(`${line}\n`);
    }
    return rest.join("");
  }

  /** The unfinished last line, if any (an error message as the process dies). */
  pending(): string {
    return this.partial.startsWith("[sql] ") ? "" : this.partial;
  }

  /** The statements collected so far by the current recording. */
  peek(): string[] {
    return [...(this.recording ?? [])];
  }

  /** Starts collecting statements; the returned function stops and returns them. */
  record(): () => string[] {
    const list: string[] = [];
    this.recording = list;
    return () => {
      if (this.recording === list) this.recording = null;
      return list;
    };
  }
}

export const BENCH_SECRET = "bench-only-secret-0123456789-abcdefghijklmnop";

function listenable(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", () => resolve(null));
    probe.listen(port, "127.0.0.1", () => {
      const address = probe.address();
      const bound = typeof address === "object" && address ? address.port : null;
      probe.close(() => resolve(bound));
    });
  });
}

/**
 * A port nothing listens on: the first free one of BENCH_PORTS (`3500-3599`), on a machine where
 * ports are handed out per person, else one the system picks.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? "");
  if (!range) {
    const port = await listenable(0);
    if (port === null) throw new Error("no free port");
    return port;
  }
  for (let port = Number(range[1]); port <= Number(range[2]); port++) {
    if ((await listenable(port)) !== null) return port;
  }
  throw new Error(`no free port in BENCH_PORTS=${process.env.BENCH_PORTS}`);
}

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["DATABASE_URL", "PGLITE_DATA_DIR", "OPENAI_API_KEY", "NODE_OPTIONS", "PORT"]) {
    delete env[key];
  }
  env.PATH = `${path.join(REPO, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`;
  // The bench plays the reverse proxy: each simulated user sends its own X-Forwarded-For.
  return { ...env, NEXT_TELEMETRY_DISABLED: "1", WORKSTREAMS_TRUST_PROXY: "1", ...extra };
}

async function waitReady(
  url: string,
  child: ChildProcess,
  output: () => string,
  probePath: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `server exited (${child.exitCode ?? child.signalCode}):\n${output().slice(-3000)}`,
      );
    }
    try {
      const response = await fetch(`${url}${probePath}`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become ready in ${timeoutMs} ms:\n${output().slice(-3000)}`);
}

async function launch(input: {
  kind: ServerKind;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  probePath: string;
  verbose: boolean;
}): Promise<Server> {
  const started = performance.now();
  const child = spawnTracked(process.execPath, input.args, {
    cwd: input.cwd,
    env: input.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const sqlTrace = new SqlTrace();
  const keep = (text: string) => {
    if (!text) return;
    output = (output + text).slice(-200_000);
    if (input.verbose) process.stderr.write(`[${input.kind}] ${text}`);
  };
  child.stdout?.on("data", (data: Buffer) => keep(data.toString()));
  // The trace goes to stderr (a line per statement).
  child.stderr?.on("data", (data: Buffer) => keep(sqlTrace.take(data.toString())));
  const url = `http://127.0.0.1:${input.port}`;
  try {
    await waitReady(url, child, () => output + sqlTrace.pending(), input.probePath, 120_000);
  } catch (error) {
    await stopChild(child, 2_000);
    throw error;
  }
  const startMs = performance.now() - started;
  const rootPid = child.pid ?? -1;
  const pid = listeningPid(rootPid, input.port) ?? rootPid;
  return {
    kind: input.kind,
    url,
    port: input.port,
    child,
    pid,
    tree: processTree(rootPid),
    startMs,
    output: () => output + sqlTrace.pending(),
    sql: sqlTrace,
    stop: () => stopChild(child),
  };
}

export type AppEnv = {
  kind: "pglite" | "postgres";
  appDir: string;
  pgliteDataDir?: string;
  databaseUrl?: string;
  chunkDelayMs: number;
  verbose: boolean;
  /** Extra node flags for the server (e.g. --cpu-prof). */
  nodeArgs?: string[];
  port?: number;
  /** Every statement on stderr (`WORKSTREAMS_SQL_TRACE=1`), counted in `server.sql`. */
  trace?: boolean;
  /** More environment (PGLITE_SETTINGS, WORKSTREAMS_VACUUM_INTERVAL_MS…). */
  env?: Record<string, string>;
};

export async function startApp(options: AppEnv): Promise<Server> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env = baseEnv({
    NODE_ENV: "production",
    WORKSTREAMS_SEED_DEMO: "0",
    BETTER_AUTH_SECRET: BENCH_SECRET,
    BETTER_AUTH_URL: url,
    WORKSTREAMS_RATE_LIMIT_TURNS: "1000000",
    OFFLINE_MODEL_CHUNK_DELAY_MS: String(options.chunkDelayMs),
    ...(options.kind === "postgres"
      ? { DATABASE_URL: options.databaseUrl ?? "" }
      : { PGLITE_DATA_DIR: options.pgliteDataDir ?? "" }),
    ...(options.trace ? { WORKSTREAMS_SQL_TRACE: "1" } : {}),
    ...options.env,
  });
  const nextBin = path.join(REPO, "node_modules", "next", "dist", "bin", "next");
  return launch({
    kind: options.kind,
    args: [...(options.nodeArgs ?? []), nextBin, "start", "-p", String(port), "-H", "127.0.0.1"],
    cwd: options.appDir,
    env,
    port,
    // 401 once the app (and its start-up: migrations, lease loop) is up.
    probePath: "/api/me",
    verbose: options.verbose,
  });
}

/**
 * The app's route handlers served from source (tests/support/serve.ts under tsx) instead of the
 * Next build: the same lib/ code with readable file:line frames, for CPU profiles.
 */
export async function startSourceServer(options: Omit<AppEnv, "appDir">): Promise<Server> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  return launch({
    kind: options.kind,
    args: [
      ...(options.nodeArgs ?? []),
      // The condition under which `server-only` lets the app's server modules load.
      "--conditions=react-server",
      "--import",
      "tsx",
      path.join(REPO, "tests", "support", "serve.ts"),
    ],
    cwd: REPO,
    env: baseEnv({
      NODE_ENV: "production",
      PORT: String(port),
      WORKSTREAMS_SEED_DEMO: "0",
      BETTER_AUTH_SECRET: BENCH_SECRET,
      BETTER_AUTH_URL: url,
      WORKSTREAMS_RATE_LIMIT_TURNS: "1000000",
      OFFLINE_MODEL_CHUNK_DELAY_MS: String(options.chunkDelayMs),
      ...(options.kind === "postgres"
        ? { DATABASE_URL: options.databaseUrl ?? "" }
        : { PGLITE_DATA_DIR: options.pgliteDataDir ?? "" }),
    }),
    port,
    probePath: "/api/me",
    verbose: options.verbose,
  });
}

export async function startBaseline(options: {
  chunkDelayMs: number;
  verbose: boolean;
  nodeArgs?: string[];
}): Promise<Server> {
  const port = await freePort();
  return launch({
    kind: "baseline",
    args: [
      ...(options.nodeArgs ?? []),
      "--conditions=react-server",
      "--import",
      "tsx",
      path.join(REPO, "bench", "baseline-server.ts"),
    ],
    cwd: REPO,
    env: baseEnv({
      NODE_ENV: "production",
      PORT: String(port),
      OFFLINE_MODEL_CHUNK_DELAY_MS: String(options.chunkDelayMs),
    }),
    port,
    probePath: "/ready",
    verbose: options.verbose,
  });
}
