// Every e2e run gets a fresh embedded database under .data/e2e-<time> (playwright.config.ts) or
// .data/e2e-dev-<time> (playwright.dev.config.ts).
// Before a run, the databases of earlier runs are deleted, unless a live server still holds one
// (its lock file names the holder's pid; see db/lock.ts).
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

function heldByLiveProcess(lockPath: string): boolean {
  if (!existsSync(lockPath)) return false;
  const pid = Number.parseInt(readFileSync(lockPath, "utf8").split("\n")[0] ?? "", 10);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export default function globalSetup(): void {
  const dataRoot = path.resolve(".data");
  if (!existsSync(dataRoot)) return;
  for (const entry of readdirSync(dataRoot)) {
    if (!/^e2e-(dev-)?\d+$/.test(entry)) continue;
    const dir = path.join(dataRoot, entry);
    const lock = `${dir}.lock`;
    if (heldByLiveProcess(lock)) continue;
    rmSync(dir, { recursive: true, force: true });
    rmSync(lock, { force: true });
  }
}
