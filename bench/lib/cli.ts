// Command-line flags of `npm run bench -- …`. Every knob has a default sized so the whole default
// run stays under ~15 minutes on a 2-core machine; `--quick` is a ~2-minute smoke run.

export const SECTIONS = [
  "overhead",
  "statements",
  "concurrency",
  "soak",
  "history",
  "client",
  "jobs",
  "full",
  "retrieval",
  "approvals",
  "inspector",
  "attachments",
] as const;
export type Section = (typeof SECTIONS)[number];
export type DbKind = "pglite" | "postgres";

export type Options = {
  sections: Set<Section>;
  dbs: DbKind[];
  quick: boolean;
  name: string;
  /** Admin URL of the throwaway Postgres cluster; the bench creates and drops its own database. */
  pgUrl: string;
  /** Sequential turns per variant in the overhead run. */
  turns: number;
  warmupTurns: number;
  /** Users (= workstreams) the sequential turns rotate over; bounds each history's length. */
  overheadUsers: number;
  /** Words per answer in the overhead run ([words:N]): the plain turn's 7. */
  overheadWords: number;
  /** Followers per plain turn on the app (0 or 1): a second tab following the workstream. */
  followers: number;
  /** Sequential turns whose statements are counted (one of them is printed). */
  statementTurns: number;
  /** Turns in the memory run (RSS after them, and its growth over the second half). */
  soakTurns: number;
  /** Turns at a time in the memory run, each in its own workstream. */
  soakParallel: number;
  /** Extra PGlite settings for the app (PGLITE_SETTINGS), e.g. "shared_buffers=128MB". */
  pgliteSettings?: string;
  /** WORKSTREAMS_VACUUM_INTERVAL_MS for the app (0: no vacuum of the embedded database). */
  vacuumIntervalMs?: number;
  /** Node flags for the app servers (e.g. --max-old-space-size=256), space-separated. */
  nodeOptions: string[];
  levels: number[];
  /** Turns per level: rounds of `level` simultaneous turns until at least this many were sampled. */
  turnsPerLevel: number;
  concurrencyWords: number;
  chunkDelayMs: number;
  historyMessages: number;
  /** New group workstreams, one turn each, whose title and activity jobs are timed. */
  jobSamples: number;
  /** Turns with one approved tool call (suspend → approve → complete), timed end to end. */
  approvalSamples: number;
  historyRequests: number;
  clientMessages: number[];
  clientRepeats: number;
  composerSelector: string;
  /**
   * auto: reuse a fresh `.next` (copied) or build a private copy of the sources; in-place: build
   * and serve the repo where it is (a checkout nobody else edits, such as bench/ab.sh's base).
   */
  build: "auto" | "snapshot" | "shadow" | "reuse" | "in-place";
  keep: boolean;
  /** The app servers reach Postgres through the cluster's Unix-domain socket, not loopback TCP. */
  pgSocket: boolean;
  /** Hard limit for the whole run; everything is torn down when it passes. */
  deadlineMs: number;
  verbose: boolean;
};

const HELP = `npm run bench -- [flags]

  --only=overhead,statements,concurrency,soak,history,client,jobs,full,retrieval,approvals,inspector
                                               sections to run (default: all)
  --db=pglite,postgres                         database variants (default: both)
  --quick                                      ~2-minute smoke run (small counts)
  --name=NAME                                  the report's title (default: bench / quick)
  --pg-url=URL                                 admin URL of the throwaway cluster
                                               (default: $BENCH_PG_URL or
                                               postgres://postgres@127.0.0.1:54329/postgres)
  --turns=N --warmup=N --overhead-users=N --overhead-words=N (plain turn: 7; warm-up: 80)
  --followers=0|1                              followers per plain turn (default 1)
  --statement-turns=N                          turns whose SQL is counted (default 10)
  --soak-turns=N --soak-parallel=N             the memory run: RSS after N turns (default
                                               1000, --quick 100), N at a time (default 1)
  --pglite-settings="shared_buffers=64MB ..."  PGLITE_SETTINGS for the PGlite server
  --vacuum-interval=MS                         WORKSTREAMS_VACUUM_INTERVAL_MS (0: off)
  --node-options="--max-old-space-size=256"    node flags for the app servers
  --levels=25,50,100 --turns-per-level=N --concurrency-words=N (default 7)
  --chunk-delay=MS                             OFFLINE_MODEL_CHUNK_DELAY_MS (default 0)
  --history-messages=N --history-requests=N
  --client-messages=10,10000 --client-repeats=N --composer-selector=CSS
  --build=auto|snapshot|shadow|reuse|in-place  how the production build is obtained: auto
                                               copies a fresh .next or builds a private copy
                                               of the sources; reuse serves the last bench
                                               build even if the sources changed; in-place
                                               builds and serves the checkout where it is
                                               (only for one nobody else edits)
  --pg-socket                                  the app servers reach Postgres through the
                                               cluster's Unix-domain socket (?host=DIR in
                                               their DATABASE_URL), not loopback TCP
  --keep                                       keep temp dirs and the bench databases
  --deadline=SECONDS                           hard limit for the whole run
  --verbose                                    print server output

  BENCH_PORTS=3500-3599                        the servers listen on the first free port of
                                               this range (default: a port the system picks)
`;

function list(value: string): string[] {
  return value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

function int(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} needs a non-negative integer`);
  return n;
}

export function parseOptions(argv: readonly string[]): Options {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    if (arg === "--help" || arg === "-h") {
      console.log(HELP);
      process.exit(0);
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match?.[1]) throw new Error(`Unknown argument ${arg}\n\n${HELP}`);
    flags.set(match[1], match[2] ?? "true");
  }
  const quick = flags.get("quick") === "true";
  const options: Options = {
    sections: new Set(SECTIONS),
    dbs: ["pglite", "postgres"],
    quick,
    name: quick ? "quick" : "bench",
    pgUrl: process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:54329/postgres",
    turns: quick ? 30 : 200,
    // Enough for each of the app's 10 pooled Postgres connections to run each hot statement
    // more than five times: Postgres plans a prepared statement afresh for its first five runs
    // on a connection (2.5–3 ms for the opening) and keeps a generic plan after that.
    warmupTurns: quick ? 5 : 80,
    overheadUsers: quick ? 5 : 10,
    overheadWords: 7,
    followers: 1,
    statementTurns: quick ? 5 : 10,
    soakTurns: quick ? 100 : 1_000,
    soakParallel: 1,
    nodeOptions: [],
    levels: quick ? [10, 25] : [25, 50, 100],
    turnsPerLevel: quick ? 1 : 200,
    concurrencyWords: 7,
    chunkDelayMs: 0,
    historyMessages: quick ? 10_000 : 100_000,
    jobSamples: quick ? 5 : 20,
    approvalSamples: quick ? 10 : 30,
    historyRequests: quick ? 50 : 200,
    clientMessages: [10, 10_000],
    clientRepeats: quick ? 1 : 3,
    composerSelector:
      '[data-testid="composer"] textarea, textarea[name="message"], form textarea, [contenteditable="true"]',
    build: "auto",
    keep: false,
    pgSocket: false,
    deadlineMs: (quick ? 8 : 40) * 60_000,
    verbose: false,
  };
  for (const [name, value] of flags) {
    switch (name) {
      case "quick":
        break;
      case "only": {
        const wanted = list(value);
        for (const section of wanted) {
          if (!(SECTIONS as readonly string[]).includes(section)) {
            throw new Error(`--only: unknown section "${section}" (${SECTIONS.join(", ")})`);
          }
        }
        options.sections = new Set(wanted as Section[]);
        break;
      }
      case "db": {
        const dbs = list(value);
        for (const db of dbs) {
          if (db !== "pglite" && db !== "postgres") throw new Error(`--db: unknown "${db}"`);
        }
        options.dbs = dbs as DbKind[];
        break;
      }
      case "name":
        options.name = value.replace(/[^\w.-]+/g, "-");
        break;
      case "pg-url":
        options.pgUrl = value;
        break;
      case "turns":
        options.turns = Math.max(1, int(name, value));
        break;
      case "warmup":
        options.warmupTurns = int(name, value);
        break;
      case "overhead-users":
        options.overheadUsers = Math.max(1, int(name, value));
        break;
      case "overhead-words":
        options.overheadWords = Math.max(1, int(name, value));
        break;
      case "followers":
        options.followers = Math.min(1, int(name, value));
        break;
      case "statement-turns":
        options.statementTurns = Math.max(1, int(name, value));
        break;
      case "soak-turns":
        options.soakTurns = Math.max(2, int(name, value));
        break;
      case "soak-parallel":
        options.soakParallel = Math.max(1, int(name, value));
        break;
      case "pglite-settings":
        options.pgliteSettings = value;
        break;
      case "node-options":
        options.nodeOptions = value.split(/\s+/).filter(Boolean);
        break;
      case "vacuum-interval":
        options.vacuumIntervalMs = int(name, value);
        break;
      case "levels":
        options.levels = list(value).map((v) => Math.max(1, int(name, v)));
        break;
      case "turns-per-level":
        options.turnsPerLevel = int(name, value);
        break;
      case "concurrency-words":
        options.concurrencyWords = Math.max(1, int(name, value));
        break;
      case "chunk-delay":
        options.chunkDelayMs = int(name, value);
        break;
      case "history-messages":
        options.historyMessages = Math.max(20, int(name, value));
        break;
      case "history-requests":
        options.historyRequests = Math.max(1, int(name, value));
        break;
      case "client-messages":
        options.clientMessages = list(value).map((v) => int(name, v));
        break;
      case "client-repeats":
        options.clientRepeats = Math.max(1, int(name, value));
        break;
      case "composer-selector":
        options.composerSelector = value;
        break;
      case "build":
        if (
          value !== "auto" &&
          value !== "snapshot" &&
          value !== "shadow" &&
          value !== "reuse" &&
          value !== "in-place"
        ) {
          throw new Error("--build is auto, snapshot, shadow, reuse or in-place");
        }
        options.build = value;
        break;
      case "pg-socket":
        options.pgSocket = true;
        break;
      case "keep":
        options.keep = value !== "false";
        break;
      case "deadline":
        options.deadlineMs = Math.max(10, int(name, value)) * 1000;
        break;
      case "verbose":
        options.verbose = value !== "false";
        break;
      default:
        throw new Error(`Unknown flag --${name}\n\n${HELP}`);
    }
  }
  const url = new URL(options.pgUrl);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
    throw new Error("--pg-url must point at 127.0.0.1: the benchmark only talks to this machine.");
  }
  return options;
}
