// A lock file beside the PGlite data dir. Two processes opening one PGlite data dir silently
// become two diverging databases, so the second one must stop at once. A lock left by a dead
// process (kill -9, power loss) is stale and is taken over, never waited on.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";

export class DatabaseLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database at ${dataDir} is in use by another Workstreams process (pid ${pid}). ` +
        "Stop that process first, or point this one elsewhere with PGLITE_DATA_DIR or DATABASE_URL.",
    );
    this.name = "DatabaseLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM means the process exists but belongs to someone else: still a live holder.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // A recycled pid that is no longer a node process does not hold our lock.
  const cmdline = `/proc/${pid}/cmdline`;
  return !existsSync(cmdline) || readFileSync(cmdline, "utf8").includes("node");
}

function readHolder(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, "utf8").split("\n")[0] ?? "", 10);
    return Number.isFinite(pid) ? pid : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Takes the lock for `dataDir` or throws DatabaseLockedError; returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(lockPath, `${process.pid}\n${new Date().toISOString()}\n`, { flag: "wx" });
      return () => {
        if (readHolder(lockPath) === process.pid) unlinkSync(lockPath);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(lockPath);
    if (holder === process.pid) return () => {};
    if (holder !== null && isAlive(holder)) throw new DatabaseLockedError(dataDir, holder);
    // Stale: its holder is gone. Remove and retry the exclusive create.
    try {
      unlinkSync(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  throw new Error(`Could not take the lock ${lockPath}; remove it if no Workstreams process runs.`);
}
