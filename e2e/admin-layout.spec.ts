// The admin console's members list: whole emails on a phone, controls stacked under the name, and
// a role badge in the same column as the role selects.
import { DEMO, signIn } from "./support/auth";
import { expect, test } from "./support/fixtures";

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("UI11 members show whole emails, with role and Remove under the name", async ({ page }) => {
    await signIn(page, { email: DEMO.admin.email, password: DEMO.password });
    await page.goto("/admin/members");
    const row = page.locator(`[data-member="${DEMO.member.email}"]`);
    const email = row.getByText(DEMO.member.email, { exact: true });
    await expect(email).toBeVisible();
    // Not cut short: the text fits its box.
    expect(
      await email.evaluate((element) => element.scrollWidth <= element.clientWidth + 0.5),
    ).toBe(true);

    const name = row.getByText(DEMO.member.name, { exact: true });
    const select = row.getByRole("combobox", { name: `Role of ${DEMO.member.name}` });
    const remove = row.getByRole("button", { name: "Remove" });
    const [nameBox, emailBox, selectBox, removeBox] = await Promise.all(
      [name, email, select, remove].map((locator) => locator.boundingBox()),
    );
    if (!nameBox || !emailBox || !selectBox || !removeBox) throw new Error("row not laid out");
    expect(selectBox.y).toBeGreaterThanOrEqual(emailBox.y + emailBox.height);
    expect(removeBox.y).toBeGreaterThanOrEqual(emailBox.y + emailBox.height);
    // Under the name: the controls start where the name starts.
    expect(Math.abs(selectBox.x - nameBox.x)).toBeLessThanOrEqual(1);
  });
});

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("UI11 a role badge lines up with the role column", async ({ page }) => {
    await signIn(page, { email: DEMO.admin.email, password: DEMO.password });
    await page.goto("/admin/members");
    // The viewer's own role cannot be changed here: a badge, where others have a select.
    const badge = page.locator(`[data-member="${DEMO.admin.email}"]`).getByText("Admin", {
      exact: true,
    });
    const select = page
      .locator(`[data-member="${DEMO.member.email}"]`)
      .getByRole("combobox", { name: `Role of ${DEMO.member.name}` });
    const [badgeBox, selectBox] = [await badge.boundingBox(), await select.boundingBox()];
    if (!badgeBox || !selectBox) throw new Error("badge or select not laid out");
    expect(Math.abs(badgeBox.x - selectBox.x)).toBeLessThanOrEqual(1);
  });
});
