// The turn inspector and the usage charts in Chromium: a member opens an answer's turn from its
// Details button and sees its timeline; as the owner of their organization they open the admin
// console's usage page, whose charts draw the turns' tokens and cost, and a workstream's runs.
// Each view is also photographed at 390 and 1280 px, light and dark, for the notes.
import type { Page } from "@playwright/test";
import { messages, openChat, sendViaApi } from "./support/chat";
import { expect, test } from "./support/fixtures";

const SCREENS = process.env.E2E_SCREENS_DIR;

/** Photographs the page at both widths in both schemes (only when E2E_SCREENS_DIR is set). */
async function photograph(page: Page, name: string, ready: () => Promise<void>) {
  if (!SCREENS) return;
  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [390, 1280]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await ready();
      await page.screenshot({ path: `${SCREENS}/${name}-${width}-${colorScheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.use({ viewport: { width: 1280, height: 900 } });
// Photographing (four shots a view) takes a while on a busy machine.
test.describe.configure({ timeout: SCREENS ? 120_000 : 60_000 });

test("an answer's Details open its turn: how it ended, its stages and its model call", async ({
  page,
}) => {
  const workstreamId = await openChat(page);
  await sendViaApi(page, workstreamId, 'What is 12 * 7? [tool:calculate:{"expression":"12 * 7"}]');
  await page.reload();
  const answer = messages(page, "assistant").last();
  await answer.hover();
  const details = answer.getByRole("button", { name: "Details" });
  await details.click();
  const sheet = page.getByRole("dialog", { name: "Turn details" });
  await expect(sheet.getByTestId("turn-state")).toHaveText("completed");
  const stages = sheet.getByRole("list", { name: "Stages of run 1" });
  for (const stage of ["RECEIVE_INPUT", "COMPOSE_REQUEST", "STREAM_RESPONSE", "RENDER"]) {
    await expect(stages.getByText(stage, { exact: true })).toBeVisible();
  }
  await expect(stages.getByText("TOOL_CALL · calculate")).toBeVisible();
  await expect(sheet.getByText("calculate", { exact: true })).toBeVisible();
  await expect(sheet.getByRole("cell", { name: "offline-1" }).first()).toBeVisible();
  await photograph(page, "inspector", async () => {
    await expect(sheet.getByTestId("turn-state")).toBeVisible();
  });
  // Escape closes it and gives focus back to the button that opened it.
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await expect(details).toBeFocused();
});

test("the admin usage charts draw the organization's turns, and a workstream's runs open in the inspector", async ({
  page,
}) => {
  const workstreamId = await openChat(page);
  await sendViaApi(page, workstreamId, "Plan the harbor festival.");
  await sendViaApi(page, workstreamId, "Now the budget for it.");
  await page.goto("/admin/usage");
  const charts = page.getByTestId("usage-charts");
  await expect(charts.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByTestId("usage-members").getByRole("row")).toHaveCount(2);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  expect((await download).suggestedFilename()).toMatch(/^usage-\d{4}-\d{2}-\d{2}\.csv$/);
  await photograph(page, "usage", async () => {
    await expect(charts.locator(".recharts-bar-rectangle").first()).toBeVisible();
  });

  await page.goto("/admin");
  await page
    .getByRole("button", { name: /^Runs of / })
    .first()
    .click();
  const sheet = page.getByRole("dialog");
  await sheet.getByTestId("admin-runs").getByRole("button").first().click();
  await expect(sheet.getByTestId("turn-state")).toHaveText("completed");
  // Metadata only: no arguments or results to unfold.
  await expect(sheet.getByText("Arguments and result")).toHaveCount(0);
  await photograph(page, "admin-inspector", async () => {
    await expect(sheet.getByTestId("turn-state")).toBeVisible();
  });
});
