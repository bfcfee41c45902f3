// Child processes of the benchmark (servers). Each runs in its own process group so the whole
// group can be signalled; every live child is killed when the benchmark exits, fails, is
// interrupted (SIGINT/SIGTERM/SIGHUP) or passes its deadline.
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

const live = new Set<ChildProcess>();
const cleanups: Array<() => void> = [];
let installed = false;

export function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** SIGTERM (a graceful close: the app closes its database), then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 8_000): Promise<void> {
  signalGroup(child, "SIGTERM");
  const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
  await exited(child);
  clearTimeout(timer);
  // Anything left in the group (there should be nothing).
  signalGroup(child, "SIGKILL");
}

/** Synchronous: safe inside process.on("exit"). */
export function killAllNow(): void {
  for (const child of live) signalGroup(child, "SIGKILL");
  live.clear();
  for (const cleanup of cleanups.splice(0)) {
    try {
      cleanup();
    } catch {
      // best effort
    }
  }
}

/** Synchronous cleanups run on any exit (temp dirs). */
export function onExit(cleanup: () => void): void {
  cleanups.push(cleanup);
}

export function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  process.on("exit", killAllNow);
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    process.on(signal, () => {
      console.error(`\n[bench] ${signal}: stopping servers`);
      killAllNow();
      process.exit(code);
    });
  }
  process.on("uncaughtException", (error) => {
    console.error("[bench] uncaught:", error);
    killAllNow();
    process.exit(1);
  });
  process.on("unhandledRejection", (error) => {
    console.error("[bench] unhandled rejection:", error);
    killAllNow();
    process.exit(1);
  });
}

/** Kills everything and exits when the run passes its deadline. */
export function armDeadline(ms: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    console.error(`\n[bench] deadline of ${Math.round(ms / 1000)} s passed: stopping`);
    killAllNow();
    process.exit(2);
  }, ms);
  timer.unref();
  return timer;
}
