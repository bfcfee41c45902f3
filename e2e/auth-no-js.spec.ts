// Signing in before the page is interactive (issue 10, item 1), proven with JavaScript off: the
// forms are POST forms bound to server actions, so the password never lands in a URL.
import type { Request } from "@playwright/test";
import { DEMO, HOME, newUser } from "./support/auth";
import { expect, test } from "./support/fixtures";

test.use({ javaScriptEnabled: false });

function recordUrls(page: import("@playwright/test").Page): string[] {
  const urls: string[] = [];
  page.on("request", (request: Request) => urls.push(request.url()));
  return urls;
}

test("UI1 without JavaScript the demo login signs in and no URL carries the password", async ({
  page,
}) => {
  const urls = recordUrls(page);
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(DEMO.admin.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(HOME);
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
  expect(urls.filter((url) => /password/i.test(url))).toEqual([]);
  expect(urls.filter((url) => url.includes(encodeURIComponent(DEMO.password)))).toEqual([]);
});

test("UI1 without JavaScript a wrong password shows the error and no URL carries it", async ({
  page,
}) => {
  const urls = recordUrls(page);
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(DEMO.member.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("Wrong email or password.");
  await expect(page.getByLabel("Email")).toHaveValue(DEMO.member.email);
  await expect(page).toHaveURL(/\/sign-in$/);
  expect(urls.filter((url) => /password/i.test(url))).toEqual([]);
});

test("UI1 without JavaScript sign-up creates the account and signs in", async ({ page }) => {
  const urls = recordUrls(page);
  const user = newUser("Nojs");
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(HOME);
  expect(urls.filter((url) => /password/i.test(url) || url.includes(user.password))).toEqual([]);
});
