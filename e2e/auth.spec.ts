import {
  createOrganization,
  DEMO,
  fillSignIn,
  fillSignUp,
  HOME,
  newUser,
  openOrganizationSettings,
  personalOrganizationName,
  signIn,
  signOutFromUserMenu,
  signUp,
} from "./support/auth";
import { expect, newSession, test } from "./support/fixtures";

const organizationButton = { name: "Organization", exact: true } as const;

test("sign up lands in the shell showing the new user's own organization", async ({ page }) => {
  const user = await signUp(page, newUser("Ada"));

  await expect(page.getByRole("button", organizationButton)).toContainText(
    personalOrganizationName(user),
  );
  // Home is the user's direct workstream with the chief.
  await expect(page).toHaveURL(HOME);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Workstreams" })).toBeVisible();
});

test("a signed-in visitor to sign-in or sign-up is sent home", async ({ page }) => {
  await signUp(page);
  await page.goto("/sign-in");
  await expect(page).toHaveURL(HOME);
  await page.goto("/sign-up");
  await expect(page).toHaveURL(HOME);
});

test("signing out from the user menu, then signing in again, returns to the shell", async ({
  page,
}) => {
  const user = await signUp(page);
  await signOutFromUserMenu(page);

  await page.goto("/");
  await expect(page).toHaveURL("/sign-in");

  await signIn(page, user);
  await expect(page.getByRole("button", organizationButton)).toContainText(
    personalOrganizationName(user),
  );
});

test("the sign-out page signs out and shows sign-in", async ({ page }) => {
  const user = await signUp(page);
  await page.goto("/sign-out");
  await expect(page.getByText(user.email)).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/sign-in");
  await page.goto("/");
  await expect(page).toHaveURL("/sign-in");
});

test("a wrong password shows an error and stays on sign-in", async ({ page }) => {
  await fillSignIn(page, { email: DEMO.member.email, password: "not-the-password" });

  await expect(
    page.getByRole("alert").filter({ hasText: "Wrong email or password." }),
  ).toBeVisible();
  await expect(page).toHaveURL("/sign-in");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
});

test("sign-up with an existing email shows an error", async ({ page }) => {
  await fillSignUp(page, { ...newUser(), email: DEMO.admin.email });

  await expect(
    page.getByRole("alert").filter({ hasText: "An account with this email already exists." }),
  ).toBeVisible();
  await expect(page).toHaveURL("/sign-up");
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
});

test("sign-up with a weak password shows an error", async ({ page }) => {
  await fillSignUp(page, { ...newUser(), password: "password123" });
  await expect(page.getByRole("alert").filter({ hasText: "too common" })).toBeVisible();
  await expect(page).toHaveURL("/sign-up");

  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "at least 8 characters" })).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
});

test("a signed-out visit to / redirects to sign-in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in to Workstreams" })).toBeVisible();
});

test("a production build does not show the demo logins", async ({ page }) => {
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in to Workstreams" })).toBeVisible();
  await expect(page.getByText("Demo logins")).toHaveCount(0);
  await expect(page.getByText(DEMO.password)).toHaveCount(0);
});

test("the organization page lists the members and their roles", async ({ page }) => {
  await signIn(page, { email: DEMO.member.email, password: DEMO.password });
  await expect(page.getByRole("button", organizationButton)).toContainText(DEMO.organizationName);
  await openOrganizationSettings(page);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(DEMO.organizationName);
  const members = page.getByRole("region", { name: "Members" }).getByRole("listitem");
  await expect(members.filter({ hasText: DEMO.admin.name })).toContainText("Admin");
  await expect(members.filter({ hasText: DEMO.member.name })).toContainText("Member");
  await expect(members.filter({ hasText: DEMO.member.name })).toContainText("(you)");
});

test("a member cannot open another organization's page", async ({ page, browser }) => {
  const alice = await signUp(page, newUser("Alice"));
  const aliceOrganizationId = await openOrganizationSettings(page);
  const aliceOrganization = personalOrganizationName(alice);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(aliceOrganization);

  const bob = await newSession(browser);
  try {
    await signUp(bob.page, newUser("Bob"));
    const response = await bob.page.goto(`/organizations/${aliceOrganizationId}`);
    expect(response?.status()).toBe(404);
    await expect(bob.page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(bob.page.getByText(aliceOrganization)).toHaveCount(0);
    await expect(bob.page.getByText(alice.name)).toHaveCount(0);

    // An organization that does not exist looks exactly the same.
    await bob.page.goto(`/organizations/${crypto.randomUUID()}`);
    await expect(bob.page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  } finally {
    await bob.context.close();
  }
});

test("the organization switcher switches between two organizations", async ({ page }) => {
  const user = await signUp(page);
  const personal = personalOrganizationName(user);
  const team = `Team ${user.name}`;
  await createOrganization(page, team);
  await page.reload();

  const switcher = page.getByRole("button", organizationButton);
  await expect(switcher).toContainText(personal);
  await switcher.click();
  await expect(page.getByRole("menuitemradio")).toHaveCount(2);
  await expect(page.getByRole("menuitemradio", { name: personal })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await page.getByRole("menuitemradio", { name: team }).click();

  await expect(switcher).toContainText(team);
  await expect(page).toHaveURL(HOME);
  await page.reload();
  await expect(switcher).toContainText(team);

  const teamId = await openOrganizationSettings(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(team);
  await expect(page.getByRole("region", { name: "Members" })).toContainText("Owner");

  await switcher.click();
  await page.getByRole("menuitemradio", { name: personal }).click();
  await expect(page).toHaveURL(HOME);
  await expect(switcher).toContainText(personal);
  // Still a member of both: the other organization's page stays open to this user.
  await page.goto(`/organizations/${teamId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(team);
});
