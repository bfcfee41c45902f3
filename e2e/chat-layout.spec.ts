// The chat page's frame: the composer shares the message column's edges, a phone shows one top
// bar, Jump to latest stays clear of the last answer's details, group headers name their lead,
// and long code lines show that they scroll.
import type { Page } from "@playwright/test";
import { composer, messages, openChat, sendViaApi, signUpViaApi } from "./support/chat";
import { expect, test } from "./support/fixtures";

async function columnAndComposer(page: Page) {
  const column = await page.getByRole("region", { name: "Messages" }).boundingBox();
  // The composer's visible box: the bordered frame around the text field.
  const frame = await composer(page).evaluate((element) => {
    let node: Element | null = element;
    while (node && getComputedStyle(node).borderTopWidth === "0px") node = node.parentElement;
    const box = (node ?? element).getBoundingClientRect();
    return { x: box.x, width: box.width };
  });
  if (!column) throw new Error("no message column");
  return { column, frame };
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`UI9 the composer shares the message column's edges at ${viewport.width} px`, async ({
    browser,
  }) => {
    const context = await browser.newContext({
      viewport,
      isMobile: viewport.width < 768,
      hasTouch: viewport.width < 768,
    });
    const page = await context.newPage();
    const id = await openChat(page);
    await sendViaApi(page, id, "Hello there");
    await page.reload();
    await expect(messages(page, "assistant")).toHaveCount(1);
    const { column, frame } = await columnAndComposer(page);
    expect(Math.abs(frame.x - column.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(frame.x + frame.width - (column.x + column.width))).toBeLessThanOrEqual(1);
    await context.close();
  });
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("UI9 the app header and the chat header share one bar", async ({ page }) => {
    await openChat(page);
    const title = page.getByRole("heading", { level: 1 });
    const menu = page.getByRole("button", { name: "Open navigation" });
    const user = page.getByRole("button", { name: "User menu" });
    const [titleBox, menuBox, userBox] = await Promise.all(
      [title, menu, user].map((locator) => locator.boundingBox()),
    );
    if (!titleBox || !menuBox || !userBox) throw new Error("top bar not laid out");
    // The title sits in the first 56 px, between the two buttons, overlapping neither.
    expect(titleBox.y + titleBox.height).toBeLessThanOrEqual(56);
    expect(titleBox.x).toBeGreaterThanOrEqual(menuBox.x + menuBox.width);
    expect(titleBox.x + titleBox.width).toBeLessThanOrEqual(userBox.x);
    // Both buttons still work from there.
    await menu.click();
    await expect(page.getByRole("dialog", { name: "Navigation" })).toBeVisible();
  });

  test("UI9 the chat title keeps its room in the phone's one bar, whole in its tooltip", async ({
    page,
  }) => {
    await signUpViaApi(page);
    const title = "Quarterly planning for the onboarding revamp with the design team";
    const response = await page.request.post("/api/workstreams", {
      data: { mode: "group", agentId: "chief", title },
    });
    expect(response.status()).toBe(201);
    const { id } = (await response.json()) as { id: string };
    await page.goto(`/w/${id}`);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveAttribute("title", title);
    // The offline model's badge shrinks to its dot, keeping its name for screen readers.
    await expect(page.getByRole("button", { name: "Offline model" })).toBeVisible();
    const box = await heading.boundingBox();
    if (!box) throw new Error("no chat title");
    // Room for about twenty characters, not the two it had beside the badge and the agent mark.
    expect(box.width).toBeGreaterThanOrEqual(140);
  });

  test("UI12 Jump to latest never covers the last answer's details", async ({ page }) => {
    const id = await openChat(page);
    for (let i = 0; i < 4; i++) await sendViaApi(page, id, `Question ${i + 1} [words:80]`);
    await page.reload();
    const details = messages(page, "assistant").last().getByTestId("message-details");
    await expect(details).toBeVisible();
    // Markdown and fonts settled, so the content's height no longer changes.
    await page.waitForLoadState("networkidle");
    const scroller = page.getByRole("region", { name: "Messages" }).locator("xpath=../..");
    // Scroll up far enough for the button to appear...
    await scroller.evaluate((element) => {
      element.scrollTop = element.scrollHeight - element.clientHeight - 140;
    });
    const jump = page.getByRole("button", { name: "Jump to the latest message" });
    await expect(jump).toBeVisible();
    // ...then let the view grow (a rotated phone, a closed keyboard) so the end comes back
    // into view without a scroll.
    await page.setViewportSize({ width: 390, height: 844 + 130 });
    await expect
      .poll(async () => {
        if (!(await jump.isVisible())) return "hidden";
        // The button may go between the visibility check and the measurement: a short wait, not
        // the default one, or the poll itself would hang on a button that is rightly gone.
        const box = (locator: typeof jump) =>
          locator.boundingBox({ timeout: 500 }).catch(() => null);
        const [a, whole, view] = [await box(jump), await box(details), await box(scroller)];
        if (!a || !whole || !view) return "hidden";
        // Only the part of the details the scroller shows can be covered: below its edge they are
        // clipped, out of sight whatever floats there.
        const top = Math.max(whole.y, view.y);
        const bottom = Math.min(whole.y + whole.height, view.y + view.height);
        if (bottom <= top) return "clear";
        const b = { x: whole.x, y: top, width: whole.width, height: bottom - top };
        const overlap =
          a.x < b.x + b.width &&
          b.x < a.x + a.width &&
          a.y < b.y + b.height &&
          b.y < a.y + a.height;
        return overlap ? "covers" : "clear";
      })
      .not.toBe("covers");
  });

  test("UI16 a long code line shows a scroll cue until scrolled to its end", async ({ page }) => {
    const id = await openChat(page);
    await sendViaApi(page, id, "Write a TypeScript function that parses a CSV line");
    await page.reload();
    const block = messages(page, "assistant").last().locator("pre").first();
    await expect(block).toBeVisible();
    const cue = messages(page, "assistant").last().locator("[data-scroll-cue]").first();
    await expect(cue).toHaveCSS("opacity", "1");
    // Highlighting may land after the first scroll and widen the lines: scroll to the end again.
    await expect(async () => {
      await block.evaluate((element) => {
        const scroller = element.closest("[class*='overflow-x-auto']") ?? element;
        scroller.scrollLeft = scroller.scrollWidth;
      });
      await expect(cue).toHaveCSS("opacity", "0", { timeout: 1_000 });
    }).toPass();
  });
});

test.describe("in dark mode", () => {
  test.use({ viewport: { width: 1280, height: 800 }, colorScheme: "dark" });

  test("UI12 Jump to latest has no shadow halo in dark mode", async ({ page }) => {
    const id = await openChat(page);
    for (let i = 0; i < 4; i++) await sendViaApi(page, id, `Question ${i + 1} [words:120]`);
    await page.reload();
    const scroller = page.getByRole("region", { name: "Messages" }).locator("xpath=../..");
    await scroller.evaluate((element) => {
      element.scrollTop = 0;
    });
    const jump = page.getByRole("button", { name: "Jump to the latest message" });
    await expect(jump).toBeVisible();
    // Every shadow layer is fully transparent (Tailwind keeps empty layers rather than "none").
    const shadow = await jump.evaluate((element) => getComputedStyle(element).boxShadow);
    const colors = shadow.match(/rgba?\([^)]*\)/g) ?? [];
    const visible = colors.filter((color) => {
      const parts = color.replace(/rgba?\(|\)/g, "").split(",");
      return parts.length === 4 ? Number(parts[3]) > 0 : true;
    });
    expect(visible, shadow).toEqual([]);
  });
});

test("UI16 a group workstream's header names its lead agent", async ({ page }) => {
  await signUpViaApi(page);
  const response = await page.request.post("/api/workstreams", {
    data: { mode: "group", title: "Launch plan" },
  });
  expect(response.status()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  await page.goto(`/w/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Launch plan" })).toBeVisible();
  await expect(page.getByText("Workstream led by Chief")).toBeVisible();
});
