// Memories and skills end to end in Chromium, with the offline model: what a member says about
// themselves in one workstream is remembered (the post-chat-memory job) and used in another of
// theirs, never in another member's; the member sees it on their Memories page; a procedure
// becomes a skill the member edits and shares after confirming; an admin adds an organization
// memory from the admin console and members see it.
import type { Page } from "@playwright/test";
import { DEMO, newUser, signIn, signUp } from "./support/auth";
import { answerText, composer, send, waitForCompleted } from "./support/chat";
import { expect, newSession, test } from "./support/fixtures";

/** Opens a new group workstream from the sidebar. */
async function newWorkstream(page: Page): Promise<void> {
  await page
    .getByRole("navigation", { name: "Workstreams" })
    .getByRole("button", { name: "New workstream" })
    .click();
  await expect(page).toHaveURL(/\/w\/ws_/);
  await expect(composer(page)).toBeVisible();
}

/** Reloads the Memories page until `text` is among the member's own (jobs run in the background). */
async function expectOwnMemory(page: Page, text: RegExp): Promise<void> {
  await expect(async () => {
    await page.goto("/memories");
    await expect(
      page.getByRole("list", { name: "Your memories" }).locator("[data-memory-text]"),
    ).toContainText([text], { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

test("I14.6 the agent remembers what a member said in one workstream and uses it in another; another member's agent does not", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  // A new member is onboarding: what they tell Chief is remembered at once.
  await signUp(page, newUser("Olga"));
  await send(page, "I prefer oolong tea for the morning standup.");
  await waitForCompleted(page);
  await page.getByRole("link", { name: "Memories" }).click();
  await expect(page).toHaveURL("/memories");
  await expectOwnMemory(page, /I prefer oolong tea for the morning standup\./);

  // Another workstream of the same member: the agent brings it up.
  await newWorkstream(page);
  await send(page, "Which tea should I bring to the morning standup?");
  await waitForCompleted(page);
  expect(await answerText(page)).toContain("I prefer oolong tea for the morning standup.");

  // Another member asks the same: their agent knows nothing of it.
  const other = await newSession(browser);
  await signUp(other.page, newUser("Pavel"));
  await newWorkstream(other.page);
  await send(other.page, "Which tea should I bring to the morning standup?");
  await waitForCompleted(other.page);
  expect(await answerText(other.page)).not.toContain("oolong");
  await other.page.goto("/memories");
  await expect(other.page.getByText("Nothing yet.", { exact: false })).toBeVisible();
  await other.context.close();
});

test("I14.6 a procedure becomes the member's skill; they edit it and share it after confirming", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signUp(page, newUser("Sana"));
  await send(
    page,
    "Here is how to close the month:\n1. Export the ledger\n2. Reconcile the bank account\n3. Send the report to finance",
  );
  await waitForCompleted(page);
  const mine = page.getByRole("list", { name: "Your skills" });
  await expect(async () => {
    await page.goto("/skills");
    await expect(mine.getByRole("heading", { name: "Close the month" })).toBeVisible({
      timeout: 1_000,
    });
  }).toPass({ timeout: 20_000 });
  const card = mine.getByRole("listitem").filter({ hasText: "Close the month" });
  await expect(card.getByRole("listitem")).toHaveText([
    "Export the ledger",
    "Reconcile the bank account",
    "Send the report to finance",
  ]);

  await card.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Name").fill("Close the books each month");
  await page.getByRole("button", { name: "Save" }).click();
  const renamed = mine.getByRole("listitem").filter({ hasText: "Close the books each month" });
  await expect(renamed).toBeVisible();

  await renamed.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Share “Close the books each month” with everyone");
  await dialog.getByRole("button", { name: "Share skill" }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole("list", { name: "Organization skills" }).getByRole("heading", {
      name: "Close the books each month",
    }),
  ).toBeVisible();
  await page.reload();
  await expect(mine).toHaveCount(0);
  await expect(
    page.getByRole("list", { name: "Organization skills" }).getByRole("heading", {
      name: "Close the books each month",
    }),
  ).toBeVisible();
});

test("I14.7 an admin adds an organization memory in the admin console; members see it", async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const fact = `Invoices go out on the first working day of the month (${Date.now().toString(36)}).`;
  await signIn(page, { email: DEMO.admin.email, password: DEMO.password });
  await page.getByRole("link", { name: "Admin console" }).click();
  await page
    .getByRole("navigation", { name: "Admin console" })
    .getByRole("link", { name: "Memories" })
    .click();
  await expect(page).toHaveURL("/admin/memories");
  await page.getByLabel("New organization memory").fill(fact);
  await page.getByRole("button", { name: "Add memory" }).click();
  const list = page.getByRole("list", { name: "Organization memories" });
  await expect(list.locator("[data-memory-text]").first()).toHaveText(fact);

  // Search finds it; a search for something else does not.
  await page.getByRole("searchbox", { name: "Search organization memories" }).fill("invoices");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(list.locator("[data-memory-text]", { hasText: fact })).toBeVisible();

  const member = await newSession(browser);
  await signIn(member.page, { email: DEMO.member.email, password: DEMO.password });
  await member.page.goto("/memories");
  await expect(
    member.page.getByRole("list", { name: "Organization memories" }).getByText(fact),
  ).toBeVisible();
  await member.context.close();
});
