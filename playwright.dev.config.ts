// The browser test against `next dev`, opened as people open it: at http://127.0.0.1, not at
// localhost, with the server started exactly as `npm run dev` starts it (no -H). Its own server,
// port and embedded database, apart from the production-build run of playwright.config.ts.
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumProject } from "./e2e/support/chromium";

const PORT = Number(process.env.E2E_DEV_PORT ?? 3208);
const baseURL = `http://127.0.0.1:${PORT}`;
// Workers re-evaluate this file but only the main process starts the server (see
// playwright.config.ts); the global setup's clean-up spares a directory a live server holds.
const dataDir = path.join(".data", `e2e-dev-${Date.now()}`);

export default defineConfig({
  testDir: "e2e/dev-server",
  // Cleans the databases of earlier runs, then compiles every page and route the test visits:
  // next dev compiles on first request, which on a loaded two-core machine takes minutes.
  globalSetup: ["./e2e/support/global-setup.ts", "./e2e/dev-server/warm-up.ts"],
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 1,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [["list", { printSteps: false }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [chromiumProject("chromium-next-dev")],
  webServer: {
    command: `npx next dev -p ${PORT}`,
    url: `${baseURL}/sign-in`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PGLITE_DATA_DIR: dataDir,
      WORKSTREAMS_SEED_DEMO: "1",
    },
  },
});
