// A long workstream in Chromium: once its history passes 70% of the model's window it is
// compacted. While that runs the chat says "Compacting…" (Send and the status line) and a message
// sent then waits for it and is answered; afterwards a marker stands for the compacted range and
// opens to its summary and, on request, to the original messages.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { composer, messages, openChat, send, turnStatus, waitForCompleted } from "./support/chat";
import { expect, test } from "./support/fixtures";

// Many long turns through the API, then a compaction that takes a few seconds on purpose.
test.describe.configure({ timeout: 180_000 });

/** About 31,000 characters: a ledger page on the lighthouse restoration, mostly figures. */
function ledgerPage(part: number, extra = ""): string {
  const head =
    `Lighthouse restoration ledger, part ${part}. ${extra} The masonry figures for the lantern ` +
    "gallery follow, as the harbor trust asked. We decided to use copper flashing on the lantern " +
    "room because it outlasts zinc. Masonry figures: ";
  const figures: string[] = [];
  let seed = part * 104_729;
  while (head.length + figures.join(" ").length < 31_000) {
    seed = (seed * 48_271) % 2_147_483_647;
    figures.push(String(seed % 100_000).padStart(5, "0"));
  }
  return `${head}${figures.join(" ")}`;
}

async function workstreamOf(page: Page, id: string): Promise<{ isCompacting: boolean }> {
  const response = await page.request.get(`/api/workstreams/${id}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as { isCompacting: boolean };
}

async function postTurn(page: Page, id: string, text: string): Promise<void> {
  const response = await page.request.post(`/api/workstreams/${id}/messages`, {
    data: {
      message: {
        id: `msg_e2e_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
        role: "user",
        parts: [{ type: "text", text }],
      },
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Long turns until the workstream starts compacting (the turn that passes 70% queues it). */
async function fillUntilCompacting(page: Page, id: string): Promise<void> {
  for (let part = 1; part <= 24; part++) {
    // The first page holds the trigger that makes its compaction take 8 s longer.
    await postTurn(
      page,
      id,
      `[words:12] ${ledgerPage(part, part === 1 ? "[slow-compaction:8000]" : "")}`,
    );
    for (let look = 0; look < 10; look++) {
      if ((await workstreamOf(page, id)).isCompacting) return;
      await page.waitForTimeout(150);
    }
  }
  throw new Error("the workstream never started compacting");
}

const marker = (page: Page) => page.getByTestId("compaction-marker");

test("a long workstream says Compacting…, keeps answering, and its marker opens to the summary and the originals", async ({
  page,
}) => {
  const id = await openChat(page);
  await fillUntilCompacting(page, id);

  await page.reload();
  const send_ = page.getByRole("button", { name: "Send (compacting…)" });
  await expect(send_).toBeVisible();
  await expect(send_).toContainText("Compacting…");
  await expect(turnStatus(page)).toContainText("Compacting…");
  await expect(turnStatus(page)).toContainText("earlier conversation is being summarized");
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, "compacting-1280-light.png") });
  }

  // A message sent now waits for the summary, saying why, and is then answered.
  await send(page, "[words:12] Where do we stand on the lighthouse?");
  await expect(turnStatus(page)).toContainText(
    "reply starts once the earlier conversation is summarized",
  );
  await expect(page.getByRole("button", { name: "Send (compacting…)" })).toHaveAttribute(
    "aria-busy",
    "true",
  );
  if (dir) await page.screenshot({ path: path.join(dir, "waiting-1280-light.png") });
  await waitForCompleted(page, 60_000);
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  await expect(composer(page)).toHaveValue("");

  // Above the newest turns, once scrolled back to it, one marker for the compacted range.
  for (let page_ = 0; page_ < 10 && !(await marker(page).isVisible()); page_++) {
    const older = page.getByRole("button", { name: "Load earlier messages" });
    if (await older.isVisible()) await older.click();
    await page.waitForTimeout(300);
  }
  await expect(marker(page)).toHaveCount(1);
  const toggle = marker(page).getByRole("button", { name: /earlier messages compacted/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const summary = page.getByTestId("compaction-summary");
  await expect(summary).toContainText("Topics:");
  await expect(summary).toContainText(/lighthouse/i);
  await expect(summary).toContainText("copper flashing");

  await marker(page)
    .getByRole("button", { name: /original messages/ })
    .click();
  const originals = page.getByTestId("compaction-originals");
  await expect(originals.locator("[data-message-id]").first()).toBeVisible();
  await expect(originals).toHaveAttribute("aria-busy", "false");
  // Paged like history: earlier pages on request, down to the first message of the workstream.
  for (let page_ = 0; page_ < 10; page_++) {
    const earlier = originals.getByRole("button", { name: "Show earlier original messages" });
    if (!(await earlier.isVisible())) break;
    await earlier.click();
    await expect(originals).toHaveAttribute("aria-busy", "false");
  }
  await expect(originals.locator('[data-role="user"]').first()).toContainText(
    "Lighthouse restoration ledger, part 1.",
  );
  // The newest turns are in the list as ever, after the marker.
  await expect(messages(page, "user").last()).toContainText("Where do we stand on the lighthouse?");

  if (dir) {
    await originals.locator("[data-message-id]").last().scrollIntoViewIfNeeded();
    // Messages paint lazily (content-visibility): give the scrolled ones a moment to paint.
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(dir, "originals-1280-light.png") });
    await marker(page).getByRole("button", { name: "Hide the original messages" }).click();
    for (const colorScheme of ["light", "dark"] as const) {
      for (const width of [390, 1280]) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
        await marker(page).scrollIntoViewIfNeeded();
        await page.waitForTimeout(300);
        await page.screenshot({ path: path.join(dir, `marker-${width}-${colorScheme}.png`) });
      }
    }
    await toggle.click();
    await page.screenshot({ path: path.join(dir, "marker-closed-390-dark.png") });
  }
});
