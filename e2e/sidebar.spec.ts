// The sidebar's layout: recent activity that does not repeat the list below it, a group list that
// starts in the top half of a laptop screen, and times that stay visible on touch screens.
import type { Page } from "@playwright/test";
import { createChiefWorkstream, sendViaApi, signUpViaApi } from "./support/chat";
import { expect, test } from "./support/fixtures";

const nav = (page: Page) => page.getByRole("navigation", { name: "Workstreams" });

type Listed = { workstreams: Array<{ id: string; title: string; agentId: string }> };

async function listWorkstreams(page: Page, query: string): Promise<Listed["workstreams"]> {
  const response = await page.request.get(`/api/workstreams?${query}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as Listed).workstreams;
}

async function createGroup(page: Page, title: string): Promise<string> {
  const response = await page.request.post("/api/workstreams", {
    data: { mode: "group", title },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/**
 * A member past onboarding (four agents, two core workstreams) with recent activity in three
 * direct workstreams, one core workstream and two group workstreams.
 */
async function busyMember(page: Page): Promise<void> {
  await signUpViaApi(page);
  await createChiefWorkstream(page);
  const onboarding = await page.request.post("/api/onboarding/complete");
  expect(onboarding.ok()).toBe(true);
  const direct = await listWorkstreams(page, "mode=direct");
  const core = await listWorkstreams(page, "mode=group&core=true");
  const groups = [await createGroup(page, "Launch plan"), await createGroup(page, "Hiring")];
  const active = [...direct.slice(0, 3).map((w) => w.id), core[0]?.id ?? "", ...groups];
  for (const id of active) await sendViaApi(page, id, "Hello there");
  // Activity is written after each turn, off the request path.
  await expect
    .poll(async () => {
      const response = await page.request.get("/api/activity");
      return ((await response.json()) as { activity: unknown[] }).activity.length;
    })
    .toBeGreaterThanOrEqual(active.length);
}

test.describe("at 1280×800", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("UI10 recent activity shows at most 3 entries, none repeating a group row below it", async ({
    page,
  }) => {
    await busyMember(page);
    await page.goto("/");
    const recent = nav(page).getByRole("region", { name: "Recent activity" });
    await expect(recent).toBeVisible();
    const entries = recent.getByRole("link");
    const count = await entries.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(3);

    const groupList = nav(page).getByRole("region", { name: "Workstreams" });
    const groupHrefs = await groupList
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(groupHrefs.length).toBeGreaterThanOrEqual(2);
    const entryHrefs = await entries.evaluateAll((links) =>
      links.map((link) => link.getAttribute("href")),
    );
    for (const href of entryHrefs) expect(groupHrefs).not.toContain(href);
  });

  test("UI10 the first group workstream row starts above y = 400", async ({ page }) => {
    await busyMember(page);
    await page.goto("/");
    const first = nav(page).getByRole("region", { name: "Workstreams" }).getByRole("listitem");
    await expect(first.first()).toBeVisible();
    const box = await first.first().boundingBox();
    expect(box?.y).toBeLessThan(400);
  });
});

test.describe("on a touch screen", () => {
  test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: true });

  test("UI10 each group row shows its time beside its menu button", async ({ page }) => {
    await signUpViaApi(page);
    await createGroup(page, "Launch plan");
    await page.goto("/");
    expect(await page.evaluate(() => matchMedia("(hover: none)").matches)).toBe(true);
    const row = nav(page).getByRole("region", { name: "Workstreams" }).getByRole("listitem");
    const time = row.first().locator("time");
    await expect(time).toHaveText(/\S/);
    await expect(time).toHaveCSS("visibility", "visible");
    const menu = row.first().getByRole("button", { name: "Actions for Launch plan" });
    const [timeBox, menuBox] = [await time.boundingBox(), await menu.boundingBox()];
    if (!timeBox || !menuBox) throw new Error("time or menu button not laid out");
    // Side by side: the menu button does not cover the time.
    expect(timeBox.x + timeBox.width).toBeLessThanOrEqual(menuBox.x + 0.5);
  });
});
