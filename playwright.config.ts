// Browser tests: Chromium against a production build (`next build` runs first) on port 3100, with a
// fresh embedded database per run and the demo organization seeded.
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumProject } from "./e2e/support/chromium";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${PORT}`;
// A fresh embedded database per run. Workers re-evaluate this file but only the main process starts
// the server, so the value they compute is never used.
const dataDir = path.join(".data", `e2e-${Date.now()}`);

export default defineConfig({
  testDir: "e2e",
  // The test against `next dev` has its own server: playwright.dev.config.ts.
  testIgnore: "dev-server/**",
  globalSetup: "./e2e/support/global-setup.ts",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list", { printSteps: false }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [chromiumProject("chromium")],
  webServer: {
    command: `npx next start -p ${PORT} -H 127.0.0.1`,
    url: `${baseURL}/sign-in`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PGLITE_DATA_DIR: dataDir,
      WORKSTREAMS_SEED_DEMO: "1",
      BETTER_AUTH_SECRET: "e2e-only-secret-0123456789-abcdefghijklmnop",
      BETTER_AUTH_URL: baseURL,
      // The tests play the reverse proxy: each browser context sends its own X-Forwarded-For
      // (e2e/support/fixtures), so sign-in limits apply per test rather than to the whole run.
      WORKSTREAMS_TRUST_PROXY: "1",
      // Memories get vectors and retrieval is hybrid, without a network.
      OPENAI_EMBEDDING_MODEL: "offline",
    },
  },
});
