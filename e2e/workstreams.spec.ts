// Workstreams in the sidebar and the admin console (seed 001, W2–W12), end to end in Chromium.
import { DEMO, newUser, signIn, signUp } from "./support/auth";
import { createChiefWorkstream } from "./support/chat";
import { expect, newSession, test } from "./support/fixtures";

const nav = (page: import("@playwright/test").Page) =>
  page.getByRole("navigation", { name: "Workstreams" });

test("W3 W11 create, rename, archive, unarchive and delete a group workstream", async ({
  page,
}) => {
  await signUp(page, newUser("Gwen"));
  await nav(page).getByRole("button", { name: "New workstream" }).click();
  await expect(page).toHaveURL(/\/w\/ws_/);
  const row = nav(page).getByRole("link", { name: /New Workstream/ });
  await expect(row).toBeVisible();

  await nav(page).getByRole("button", { name: "Actions for New Workstream" }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const field = nav(page).getByRole("textbox", { name: "Rename New Workstream" });
  await field.fill("Launch plan");
  await field.press("Enter");
  await expect(nav(page).getByRole("link", { name: /Launch plan/ })).toBeVisible();

  await nav(page).getByRole("button", { name: "Actions for Launch plan" }).click();
  await page.getByRole("menuitem", { name: "Archive" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Archive" }).click();
  await expect(nav(page).getByRole("link", { name: /Launch plan/ })).toHaveCount(0);

  await nav(page).getByRole("checkbox", { name: "Show archived" }).check();
  await expect(nav(page).getByRole("link", { name: /Launch plan/ })).toContainText("Archived");
  await nav(page).getByRole("button", { name: "Actions for Launch plan" }).click();
  await page.getByRole("menuitem", { name: "Unarchive" }).click();
  await expect(nav(page).getByRole("link", { name: /Launch plan/ })).not.toContainText("Archived");

  await nav(page).getByRole("button", { name: "Actions for Launch plan" }).click();
  await page.getByRole("menuitem", { name: "Archive" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Archive" }).click();
  await nav(page).getByRole("button", { name: "Actions for Launch plan" }).click();
  await page.getByRole("menuitem", { name: /Delete/ }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(nav(page).getByRole("link", { name: /Launch plan/ })).toHaveCount(0);
});

test("W4 finishing onboarding provisions the core workstreams", async ({ page }) => {
  await signUp(page, newUser("Otto"));
  await expect(nav(page).getByText("Daily Activities")).toHaveCount(0);
  await nav(page).getByRole("button", { name: "Finish onboarding" }).click();
  await expect(nav(page).getByRole("link", { name: /Daily Activities/ })).toBeVisible();
  await expect(nav(page).getByRole("link", { name: /Decision Log/ })).toBeVisible();
});

test("a title change in one tab shows in another", async ({ page, context }) => {
  await signUp(page, newUser("Tia"));
  await nav(page).getByRole("button", { name: "New workstream" }).click();
  await expect(nav(page).getByRole("link", { name: /New Workstream/ })).toBeVisible();
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(nav(other).getByRole("link", { name: /New Workstream/ })).toBeVisible();

  await nav(page).getByRole("button", { name: "Actions for New Workstream" }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const field = nav(page).getByRole("textbox", { name: "Rename New Workstream" });
  await field.fill("Shared title");
  await field.press("Enter");
  await expect(nav(other).getByRole("link", { name: /Shared title/ })).toBeVisible();
  await other.close();
});

test("W12 an admin stops a member's running turn from the admin console", async ({ browser }) => {
  const member = await newSession(browser);
  await signIn(member.page, { email: DEMO.member.email, password: DEMO.password });
  const workstreamId = await createChiefWorkstream(member.page);
  // Start a turn that runs until stopped; the browser's request is left open on purpose.
  await member.page.evaluate((id) => {
    void fetch(`/api/workstreams/${id}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        message: {
          id: `m_${Date.now()}`,
          role: "user",
          parts: [{ type: "text", text: "[hang] think" }],
        },
      }),
    });
  }, workstreamId);
  await expect
    .poll(async () => {
      const response = await member.page.request.get(`/api/workstreams/${workstreamId}`);
      return ((await response.json()) as { isRunning: boolean }).isRunning;
    })
    .toBe(true);

  const admin = await newSession(browser);
  await signIn(admin.page, { email: DEMO.admin.email, password: DEMO.password });
  await admin.page.goto("/admin");
  await admin.page.getByRole("button", { name: "Stop", exact: true }).first().click();
  await admin.page.getByRole("alertdialog").getByRole("button", { name: "Stop turn" }).click();
  await expect
    .poll(
      async () => {
        const response = await member.page.request.get(`/api/workstreams/${workstreamId}`);
        return ((await response.json()) as { isRunning: boolean }).isRunning;
      },
      { timeout: 15_000 },
    )
    .toBe(false);
  await member.context.close();
  await admin.context.close();
});
