// A signed-in page whose scripts never run says so: the page's JavaScript (and the dev server's
// HMR socket) is refused, as the dev server refuses it to an address it does not serve. A page
// that hydrates, and the sign-in page, never show the notice.
import type { Page } from "@playwright/test";
import { DEMO, HOME } from "./support/auth";
import { openChat } from "./support/chat";
import { expect, test } from "./support/fixtures";

test.describe.configure({ timeout: 60_000 });

const notice = (page: Page) =>
  page.getByRole("alert").filter({ hasText: "This page has not started." });

/** Refuses every script the server sends and the dev server's HMR endpoint. */
async function blockScripts(page: Page): Promise<void> {
  await page.route(
    (url) =>
      url.pathname.startsWith("/_next/") && /\.js$|webpack-hmr|turbopack-hmr/.test(url.pathname),
    (route) => route.abort(),
  );
}

test("a signed-in page whose scripts are blocked says so after 8 s, naming the cause", async ({
  page,
}) => {
  await blockScripts(page);
  // The sign-in form works without scripts and shows no notice.
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(DEMO.member.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(HOME);
  const loaded = Date.now();

  await expect(notice(page)).toBeVisible({ timeout: 15_000 });
  expect(Date.now() - loaded).toBeGreaterThanOrEqual(7_000);
  await expect(notice(page)).toContainText("Its scripts have not run 8 seconds after it loaded");
  await expect(notice(page)).toContainText("blocks JavaScript");
});

test("the sign-in page never shows the notice, even without its scripts", async ({ page }) => {
  await blockScripts(page);
  await page.goto("/sign-in");
  await page.waitForTimeout(9_000);
  await expect(page.getByText("This page has not started.")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
});

test("a hydrated signed-in page never shows the notice", async ({ page }) => {
  await openChat(page);
  await page.waitForTimeout(9_000);
  await expect(page.getByText("This page has not started.")).toHaveCount(0);
});
