// What a server process does once before it serves: open and migrate the database, seed the demo
// organization in development, and start the background loops later issues register. A stop
// signal shuts all of it down in order (./shutdown.ts).
import "server-only";
import { getDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { processSingleton } from "@/lib/kernel/singleton";
import { servedDevUrls } from "./dev-origins";
import { installShutdownHandlers } from "./shutdown";

type StartupHook = () => Promise<void> | void;
const state = processSingleton<{ done?: Promise<void>; hooks: StartupHook[] }>("startup", () => ({
  hooks: [],
}));

/** Registers work to run after migrations (reapers, job runners). */
export function onStartup(hook: StartupHook): void {
  state.hooks.push(hook);
}

export function shouldSeedDemo(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.WORKSTREAMS_SEED_DEMO) return env.WORKSTREAMS_SEED_DEMO === "1";
  return env.NODE_ENV !== "production" && env.NODE_ENV !== "test";
}

export function startServer(): Promise<void> {
  state.done ??= (async () => {
    // First, so a stop during migrations also closes the database and releases its lock.
    installShutdownHandlers();
    // A malformed model configuration stops the server here, naming the variable.
    const { loadModelConfig } = await import("@/lib/models/model-config");
    loadModelConfig();
    const handle = await getDatabase();
    await migrateDatabase(handle);
    if (shouldSeedDemo()) {
      const { seedDemo } = await import("@/lib/auth/demo-seed");
      await seedDemo();
    }
    const { startLeaseLoop } = await import("@/lib/turns/lease");
    await startLeaseLoop();
    const { startCompactionReaper } = await import("@/lib/compaction/lease");
    await startCompactionReaper();
    // The embedded database has no autovacuum: the server vacuums it.
    const { startLogMaintenance } = await import("@/lib/stream/log-maintenance");
    await startLogMaintenance();
    for (const hook of state.hooks) await hook();
    if (process.env.NODE_ENV === "development") printDevUrls();
  })();
  return state.done;
}

/** Where to open the app: Next's own banner names only localhost and one network address. */
function printDevUrls(): void {
  console.log(
    [
      "  Workstreams is served at:",
      ...servedDevUrls().map((url) => `    ${url}`),
      "  More addresses (a tunnel, a hostname): WORKSTREAMS_DEV_ORIGINS, comma-separated.",
      "",
    ].join("\n"),
  );
}

/** For the Next.js server: a process that cannot start says why and exits. */
export async function startServerOrExit(load: () => Promise<unknown>): Promise<void> {
  try {
    // Settings are read when lib/config first loads: a bad one throws here, naming the variable.
    await import("@/lib/config");
    await load();
    await startServer();
  } catch (error) {
    console.error(
      `\n[workstreams] could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
}
