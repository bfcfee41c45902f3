import { signUp } from "./support/auth";
import { expect, test } from "./support/fixtures";

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

    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await expect(menu).toBeVisible();
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
    await switcher.focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitemradio")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Organization settings" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/organizations\/[^/]+$/);
  });
});
