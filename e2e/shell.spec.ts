import type { Page } from "@playwright/test";
import { signUp } from "./support/auth";
import { expect, test } from "./support/fixtures";

const nav = (page: Page) => page.getByRole("navigation", { name: "Workstreams" });

/** A signed-up person with one group workstream titled "Launch plan", on the home page. */
async function withLaunchPlan(page: Page): Promise<void> {
  await signUp(page);
  const response = await page.request.post("/api/workstreams", {
    data: { mode: "group", title: "Launch plan" },
  });
  expect(response.status()).toBe(201);
  await page.reload();
  await expect(nav(page).getByRole("link", { name: /Launch plan/ })).toBeVisible();
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the navigation opens from the menu button and closes with Escape", async ({ page }) => {
    await signUp(page);
    const navigation = page.getByRole("navigation", { name: "Workstreams" });
    const openButton = page.getByRole("button", { name: "Open navigation" });
    await expect(navigation).toBeHidden();

    await openButton.click();
    await expect(page.getByRole("dialog", { name: "Navigation" })).toBeVisible();
    await expect(navigation).toBeVisible();
    await expect(page.getByRole("button", { name: "Close navigation" })).toBeFocused();

    await page.keyboard.press("Escape");
    await expect(navigation).toBeHidden();
    await expect(openButton).toBeFocused();
    await expect(openButton).toHaveAttribute("aria-expanded", "false");
  });

  test("the navigation closes with its close button", async ({ page }) => {
    await signUp(page);
    await page.getByRole("button", { name: "Open navigation" }).click();
    await page.getByRole("button", { name: "Close navigation" }).click();
    await expect(page.getByRole("navigation", { name: "Workstreams" })).toBeHidden();
  });
});

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the sidebar is always shown and there is no menu button", async ({ page }) => {
    await signUp(page);
    await expect(page.getByRole("navigation", { name: "Workstreams" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Open navigation" })).toBeHidden();
  });

  test("keyboard: Tab reaches the user menu and it opens with Enter", async ({ page }) => {
    const user = await signUp(page);
    const userMenu = page.getByRole("button", { name: "User menu" });

    let reached = false;
    for (let presses = 0; presses < 12 && !reached; presses += 1) {
      await page.keyboard.press("Tab");
      reached = await userMenu.evaluate((element) => element === document.activeElement);
    }
    expect(reached).toBe(true);

    const menu = page.getByRole("menu");
    // Before the page has hydrated, Enter on the focused button has no handler yet; a person
    // would press again (only while the menu is still closed: Enter in it would pick an item).
    await expect(async () => {
      if (!(await menu.isVisible())) await page.keyboard.press("Enter");
      await expect(menu).toBeVisible({ timeout: 2_000 });
    }).toPass();
    await expect(menu).toContainText(user.email);
    await expect(menu).toContainText("Owner");
    await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeFocused();

    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(userMenu).toBeFocused();
  });

  test("keyboard: arrow keys move through the organization menu", async ({ page }) => {
    await signUp(page);
    const switcher = page.getByRole("button", { name: "Organization", exact: true });
    // Before the page has hydrated a key press has no handler yet; a person would press again.
    await expect(async () => {
      await switcher.focus();
      await page.keyboard.press("ArrowDown");
      await expect(page.getByRole("menuitemradio")).toBeFocused({ timeout: 1_000 });
    }).toPass();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Organization settings" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/organizations\/[^/]+$/);
  });
});

test.describe("menus, dialogs and tooltips", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("UI17 typing a letter in a row's menu moves to the item starting with it", async ({
    page,
  }) => {
    await withLaunchPlan(page);
    const trigger = nav(page).getByRole("button", { name: "Actions for Launch plan" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menuitem", { name: "Rename" })).toBeFocused();
    await page.keyboard.press("a");
    await expect(page.getByRole("menuitem", { name: "Archive" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toBeHidden();
    await expect(trigger).toBeFocused();
  });

  test("UI17 a row's icon-only menu button explains itself in a tooltip", async ({ page }) => {
    await withLaunchPlan(page);
    await nav(page)
      .getByRole("link", { name: /Launch plan/ })
      .hover();
    const button = nav(page).getByRole("button", { name: "Actions for Launch plan" });
    await button.hover();
    // A pointer resting on it moves a little, as pointers do.
    await expect(async () => {
      await button.hover({ position: { x: 10, y: 12 } });
      await button.hover({ position: { x: 12, y: 10 } });
      await expect(page.getByRole("tooltip")).toHaveText("Rename or archive", { timeout: 1_000 });
    }).toPass();
  });

  test("UI17 a confirmation is an alert dialog named by its question and described by its consequence", async ({
    page,
  }) => {
    await withLaunchPlan(page);
    const trigger = nav(page).getByRole("button", { name: "Actions for Launch plan" });
    await trigger.click();
    await page.getByRole("menuitem", { name: "Archive" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Archive “Launch plan”?" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleDescription(/leaves your list/);
    // The safe choice has focus; Escape cancels and focus goes back to the menu button.
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
    await expect(nav(page).getByRole("link", { name: /Launch plan/ })).toBeVisible();
  });
});
