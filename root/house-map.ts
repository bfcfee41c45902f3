// The house map: which folders form which part of the app, and which parts a part may import
// (value imports; `import type` is free). root/house-map.test.ts reads the repository against it
// and fails on an arrow the map does not allow, on a folder cycle, and on a folder the map does
// not place. docs/architecture.md shows the same map to readers.

export type PartName =
  | "kernel"
  | "config"
  | "db"
  | "jobs"
  | "domains"
  | "client"
  | "engine"
  | "root"
  | "app"
  | "components";

export type Part = { about: string; folders: readonly string[]; mayImport: readonly PartName[] };

export const PARTS: Record<PartName, Part> = {
  kernel: {
    about: "leaf utilities every layer uses: the error vocabulary, singletons, text and numbers",
    folders: ["lib/kernel", "lib/text", "lib/format"],
    mayImport: [],
  },
  config: {
    about: "the host configuration (lib/config.ts)",
    folders: ["lib"],
    mayImport: ["kernel"],
  },
  db: { about: "schema, client and migrations", folders: ["db"], mayImport: ["kernel"] },
  jobs: {
    about: "the jobs port: events, declarations, enqueueing and the outbox",
    folders: ["lib/jobs"],
    mayImport: ["kernel", "config", "db"],
  },
  domains: {
    about: "the server's domains, each folder one concept",
    folders: [
      "lib/admin",
      "lib/agents",
      "lib/approvals",
      "lib/auth",
      "lib/compaction",
      "lib/context",
      "lib/files",
      "lib/http",
      "lib/inspector",
      "lib/memory",
      "lib/models",
      "lib/skills",
      "lib/state",
      "lib/stream",
      "lib/telemetry",
      "lib/turns",
      "lib/workstreams",
    ],
    mayImport: ["kernel", "config", "db", "jobs", "domains"],
  },
  client: {
    about: "code that runs in the browser: the chat client and the JSON client",
    folders: ["lib/chat-client", "lib/api-client"],
    mayImport: ["kernel", "client"],
  },
  engine: {
    about: "the background engines (Inngest, the embedded runner) and the job functions",
    folders: ["inngest", "inngest/failures", "inngest/functions", "inngest/runner"],
    mayImport: ["kernel", "config", "db", "jobs", "domains", "engine"],
  },
  root: {
    about: "the composition root: start-up, wiring and shutdown",
    folders: ["root", "instrumentation"],
    mayImport: ["kernel", "config", "db", "jobs", "domains", "engine", "root"],
  },
  app: {
    about: "Next's routes: pages, layouts and route handlers",
    folders: ["app"],
    mayImport: ["kernel", "config", "domains", "client", "engine", "root", "components"],
  },
  components: {
    about: "React components (client-safe modules of a domain, such as labels, may be imported)",
    folders: [
      "components/admin",
      "components/auth",
      "components/chat",
      "components/inspector",
      "components/live",
      "components/memory",
      "components/shell",
      "components/sidebar",
      "components/skills",
      "components/state",
      "components/ui",
    ],
    mayImport: ["kernel", "client", "domains", "components"],
  },
};

/**
 * Arrows that exist today against the map, each with the issue that removes it. The list may only
 * shrink: an entry whose arrow is gone fails the test until it is deleted here.
 */
export const ALLOWED_FOR_NOW: ReadonlyArray<{ from: string; to: string; removedBy: string }> = [];

/**
 * The modules that write the outbox (`job_events`) besides the jobs port itself, each with the
 * issue that moves its write behind the port. The list may only shrink. (A database trigger of
 * migration 0016 queues an organization's file deletion; it is the database's own write.)
 */
export const OUTBOX_WRITERS_FOR_NOW: ReadonlyArray<{ file: string; removedBy: string }> = [];
