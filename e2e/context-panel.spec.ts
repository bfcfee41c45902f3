// The workstream context panel: what the agent records through a turn shows up beside the chat,
// a member's edits reach their other tabs live, memory-block notes can be deleted, and on a
// phone the panel is a sheet that keyboard users can open, stay in and leave.
import type { Page } from "@playwright/test";
import { openChat, send, sendViaApi, waitForCompleted, withToolCall } from "./support/chat";
import { expect, test } from "./support/fixtures";

const panel = (page: Page) => page.getByRole("complementary", { name: "Workstream context" });
const toggle = (page: Page) =>
  page.getByRole("button", { name: "Workstream context", exact: true });
const decisions = (page: Page) =>
  panel(page).locator('[data-state-list="keyDecisions"] [data-state-item]');

test.describe("beside the chat", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("W9 a decision the agent records through a turn appears in the panel with its rationale and confidence", async ({
    page,
  }) => {
    await openChat(page);
    await expect(panel(page)).toBeVisible();
    await expect(toggle(page)).toHaveAttribute("aria-expanded", "true");
    await expect(panel(page).locator('[data-state-list="keyDecisions"]')).toContainText("none");

    await send(
      page,
      withToolCall("Record this decision.", "update_workstream_state", {
        keyDecisions: { add: [{ text: "Use Postgres", rationale: "the ops team knows it" }] },
      }),
    );
    await waitForCompleted(page);
    await expect(decisions(page)).toHaveCount(1);
    await expect(decisions(page)).toContainText("Use Postgres");
    await expect(decisions(page)).toContainText("the ops team knows it");
    await expect(decisions(page)).toContainText("70% confident");
  });

  test("M3 what the agent saw lists the last turn's context sections with their token counts", async ({
    page,
  }) => {
    const id = await openChat(page);
    await expect(panel(page).getByText("Nothing yet")).toBeVisible();
    await sendViaApi(
      page,
      id,
      withToolCall("Add a task.", "update_workstream_state", {
        tasks: { add: [{ text: "Write the migration" }] },
      }),
    );
    await sendViaApi(page, id, "What should I do first?");
    const sections = panel(page).locator("[data-context-section]");
    await expect(sections.first()).toHaveAttribute("data-context-section", "instructions");
    await expect(sections.last()).toHaveAttribute("data-context-section", "history");
    // The second turn's state section held the task the first one added.
    const state = panel(page).locator('[data-context-section="workstreamState"]');
    await expect(state).toContainText("Workstream state");
    await expect(state).toContainText("/ 1,500");
    expect(Number(await state.getAttribute("data-tokens"))).toBeGreaterThan(0);
    await expect(panel(page).locator('[data-context-section="history"]')).toContainText(
      "3 messages",
    );
  });

  test("W9 a member's edit of a decision shows in their other tab without a reload", async ({
    page,
    context,
  }) => {
    const id = await openChat(page);
    await sendViaApi(
      page,
      id,
      withToolCall("Record this decision.", "update_workstream_state", {
        keyDecisions: { add: [{ text: "Ship on Fridays", rationale: "the team is in" }] },
      }),
    );
    const other = await context.newPage();
    await other.goto(`/w/${id}`);
    await expect(decisions(other)).toContainText("Ship on Fridays");
    await expect(decisions(page)).toContainText("Ship on Fridays");

    await decisions(page).hover();
    const edit = decisions(page).getByRole("button", { name: "Edit decision" });
    await edit.click();
    const form = panel(page).getByRole("form", { name: "Edit decision" });
    await form.getByLabel("Decision").fill("Ship on Thursdays");
    await form.getByLabel("Rationale").fill("Fridays are for fixes");
    await form.getByLabel("Confidence").fill("90");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form).toBeHidden();
    await expect(edit).toBeFocused();
    await expect(decisions(page)).toContainText("Ship on Thursdays");

    await expect(decisions(other)).toContainText("Ship on Thursdays");
    await expect(decisions(other)).toContainText("Fridays are for fixes");
    await expect(decisions(other)).toContainText("90% confident");
    await other.close();
  });

  test("W9 an addition past a list's limit shows the server's sentence and keeps the draft", async ({
    page,
  }) => {
    await openChat(page);
    const list = panel(page).locator('[data-state-list="currentPlan"]');
    const addSummary = async (text: string) => {
      await list.hover();
      await list.getByRole("button", { name: "Add a plan summary" }).click();
      const form = list.getByRole("form", { name: "New plan summary" });
      await form.getByLabel("Plan summary").fill(text);
      await form.getByRole("button", { name: "Add" }).click();
      return form;
    };
    await expect(await addSummary("Migrate in three steps")).toBeHidden();
    await expect(list.locator("[data-state-item]")).toHaveCount(1);

    const refused = await addSummary("Migrate in one go");
    await expect(refused.getByRole("alert")).toContainText(
      "That list of the workstream state is full.",
    );
    await expect(refused.getByLabel("Plan summary")).toHaveValue("Migrate in one go");
    await expect(list.locator("[data-state-item]")).toHaveCount(1);
  });

  test("W10 deleting a note from the memory block", async ({ page }) => {
    const id = await openChat(page);
    await sendViaApi(
      page,
      id,
      withToolCall("Note this.", "add_memory_note", { text: "The member prefers email updates" }),
    );
    await sendViaApi(
      page,
      id,
      withToolCall("Note this.", "add_memory_note", { text: "Standups are at 9:30" }),
    );
    const entries = panel(page).locator("[data-memory-entry]");
    await expect(entries).toHaveCount(2);
    const email = entries.filter({ hasText: "email updates" });
    await expect(email).toContainText("Chief");

    await email.hover();
    await email.getByRole("button", { name: "Delete note" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete this note?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(dialog).toBeHidden();
    await expect(entries).toHaveCount(1);

    await page.reload();
    await expect(entries).toHaveCount(1);
    await expect(entries).toContainText("Standups are at 9:30");
  });

  test("the panel stays closed after a reload once closed", async ({ page }) => {
    await openChat(page);
    await toggle(page).click();
    await expect(toggle(page)).toHaveAttribute("aria-expanded", "false");
    await expect(panel(page)).toBeHidden();
    await page.reload();
    await expect(toggle(page)).toHaveAttribute("aria-expanded", "false");
    await expect(panel(page)).toBeHidden();
    await toggle(page).click();
    await expect(panel(page)).toBeVisible();
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the context sheet opens by keyboard, keeps focus inside, closes with Escape and hands focus back", async ({
    page,
  }) => {
    await openChat(page);
    await expect(panel(page)).toHaveCount(0);
    const button = toggle(page);
    await expect(button).toHaveAttribute("aria-expanded", "false");

    await button.focus();
    await page.keyboard.press("Enter");
    const sheet = page.getByRole("dialog", { name: "Workstream context" });
    await expect(sheet).toBeVisible();
    // The page behind a modal sheet is hidden from the accessibility tree: find it by its label.
    await expect(page.locator('button[aria-label="Workstream context"]')).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    await expect(sheet.getByRole("button", { name: "Close" })).toBeFocused();
    await expect(sheet.locator('[data-state-list="tasks"]')).toBeVisible();

    // Tab and Shift+Tab go round inside the sheet, never to the page behind it.
    const inside = () => sheet.evaluate((element) => element.contains(document.activeElement));
    for (let step = 0; step < 12; step++) {
      await page.keyboard.press("Tab");
      expect(await inside()).toBe(true);
    }
    for (let step = 0; step < 14; step++) {
      await page.keyboard.press("Shift+Tab");
      expect(await inside()).toBe(true);
    }

    // Escape in an edit form cancels the edit and leaves the sheet open.
    await sheet.getByRole("button", { name: "Add a task" }).click();
    await page.keyboard.type("Book the room");
    await page.keyboard.press("Escape");
    await expect(sheet.getByRole("form", { name: "New task" })).toHaveCount(0);
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole("button", { name: "Add a task" })).toBeFocused();

    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute("aria-expanded", "false");
  });
});
