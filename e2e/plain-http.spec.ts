// Signing in over plain HTTP on an address that is not localhost, as on a LAN or a test box:
// `next start` without BETTER_AUTH_URL must not mark the session cookies Secure (browsers drop
// Secure cookies on http:// origins other than localhost, so sign-in silently failed).
// This spec starts its own server, because the shared one has BETTER_AUTH_URL set.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { chromium } from "@playwright/test";
import { DEMO, HOME } from "./support/auth";
import { expect, test } from "./support/fixtures";

const PORT = Number(process.env.E2E_PORT ?? 3100) + 50;
const LAN_URL = `http://lan.test:${PORT}`;
let server: ChildProcess | undefined;

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PGLITE_DATA_DIR: path.join(".data", `e2e-${Date.now() + 1}`),
    WORKSTREAMS_SEED_DEMO: "1",
    BETTER_AUTH_SECRET: "e2e-only-secret-0123456789-abcdefghijklmnop",
  };
  delete env.BETTER_AUTH_URL;
  delete env.WORKSTREAMS_TRUST_PROXY;
  server = spawn(
    path.resolve("node_modules/.bin/next"),
    ["start", "-p", String(PORT), "-H", "127.0.0.1"],
    { env, stdio: "ignore" },
  );
  await expect
    .poll(
      async () => {
        const response = await fetch(`http://127.0.0.1:${PORT}/sign-in`).catch(() => null);
        return response?.status ?? 0;
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe(200);
});

test.afterAll(async () => {
  server?.kill("SIGTERM");
});

test("UI2 the demo login signs in at http://lan.test under next start and stays signed in", async () => {
  const browser = await chromium.launch({
    executablePath: process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", `--host-resolver-rules=MAP lan.test 127.0.0.1`],
  });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${LAN_URL}/sign-in`);
    await page.getByLabel("Email").fill(DEMO.member.email);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(HOME);
    await page.reload();
    await expect(page).toHaveURL(HOME);
    await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
    const cookies = await page.context().cookies(LAN_URL);
    const session = cookies.find((cookie) => cookie.name.endsWith("session_token"));
    expect(session?.secure).toBe(false);
  } finally {
    await browser.close();
  }
});
