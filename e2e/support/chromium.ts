// The browser every Playwright run uses: Debian's Chromium (never a downloaded one), with the
// flags this machine's closed network needs. Both configs take their project from here, and the
// benchmark's browser scenarios (bench/scenarios/client.ts) launch it with the same options.
import { devices, type LaunchOptions, type Project } from "@playwright/test";

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

export function chromiumProject(name: string): Project {
  return {
    name,
    use: { ...devices["Desktop Chrome"], launchOptions: chromiumLaunchOptions },
  };
}
