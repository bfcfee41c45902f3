// Every e2e run gets a fresh embedded database under .data/e2e-<time> (playwright.config.ts) or
// .data/e2e-dev-<time> (playwright.dev.config.ts).
// Before a run, the databases of earlier runs of the same config are deleted, unless a live server
// still holds one (its lock file names the holder's pid; see db/lock.ts). Each config spares the
// other's: scripts/test.mjs runs the two side by side, and a database whose server is still
// starting holds no lock yet.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { FullConfig } from "@playwright/test";

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

export default function globalSetup(config: FullConfig): void {
  const dataRoot = path.resolve(".data");
  if (!existsSync(dataRoot)) return;
  const dev = path.basename(config.configFile ?? "") === "playwright.dev.config.ts";
  const ours = dev ? /^e2e-dev-\d+$/ : /^e2e-\d+$/;
  for (const entry of readdirSync(dataRoot)) {
    if (!ours.test(entry)) continue;
    const dir = path.join(dataRoot, entry);
    const lock = `${dir}.lock`;
    if (heldByLiveProcess(lock)) continue;
    rmSync(dir, { recursive: true, force: true });
    rmSync(lock, { force: true });
  }
}
