// Signing people up, in and out through the real forms.
import { expect, type Page } from "@playwright/test";

export type TestUser = { name: string; email: string; password: string };

/** Where the signed-in home lands: the user's direct workstream with the chief. */
export const HOME = /\/w\/direct_chief_user_/;

export const DEMO = {
  password: "workstreams-demo",
  admin: { email: "admin@demo.workstreams.dev", name: "Ada Admin" },
  member: { email: "member@demo.workstreams.dev", name: "Max Member" },
  organizationName: "Demo Organization",
} as const;

function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

/** A person who does not exist yet, with an email no other test uses. */
export function newUser(firstName = "Robin"): TestUser {
  const suffix = uniqueSuffix();
  return {
    name: `${firstName} Tester${suffix.slice(-4)}`,
    email: `${firstName.toLowerCase()}-${suffix}@example.com`,
    password: `calm-river-${suffix}`,
  };
}

/** The organization sign-up creates for a new user. */
export function personalOrganizationName(user: TestUser): string {
  return `${user.name}'s organization`;
}

export async function fillSignUp(page: Page, user: TestUser): Promise<void> {
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
}

/** Signs a new user up and waits for the signed-in shell. */
export async function signUp(page: Page, user: TestUser = newUser()): Promise<TestUser> {
  await fillSignUp(page, user);
  await expect(page).toHaveURL(HOME);
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
  return user;
}

export async function fillSignIn(
  page: Page,
  credentials: { email: string; password: string },
): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signIn(
  page: Page,
  credentials: { email: string; password: string },
): Promise<void> {
  await fillSignIn(page, credentials);
  await expect(page).toHaveURL(HOME);
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
}

export async function signOutFromUserMenu(page: Page): Promise<void> {
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/sign-in");
}

/** Opens the active organization's page through the switcher; returns the organization's id. */
export async function openOrganizationSettings(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Organization", exact: true }).click();
  await page.getByRole("menuitem", { name: "Organization settings" }).click();
  await expect(page).toHaveURL(/\/organizations\/[^/]+$/);
  const id = new URL(page.url()).pathname.split("/").at(-1);
  if (!id) throw new Error(`No organization id in ${page.url()}`);
  return id;
}

/** Creates another organization for the signed-in user through better-auth's API. */
export async function createOrganization(page: Page, name: string): Promise<void> {
  const status = await page.evaluate(async (organizationName) => {
    const response = await fetch("/api/auth/organization/create", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: organizationName,
        slug: `${organizationName.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${Date.now()}`,
        keepCurrentActiveOrganization: true,
      }),
    });
    return response.status;
  }, name);
  expect(status).toBe(200);
}
