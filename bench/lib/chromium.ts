// How every browser in this repo is launched: Debian's Chromium (never a downloaded one), with the
// flags this machine's closed network needs. The Playwright configs (e2e/support/chromium.ts) and
// the benchmark's browser scenarios (bench/scenarios/client.ts) both launch it so. It lives in
// bench/ because bench/ab.sh copies bench/ into an older commit's worktree, whose e2e/ may not
// have it.
import type { LaunchOptions } from "@playwright/test";

export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
