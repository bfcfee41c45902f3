// Attachments in Chromium: an image and a PDF dropped on the composer upload as chips with a
// progress bar, go with the message, come back as a thumbnail and a file card after a reload,
// the agent quotes the PDF, and the card downloads the file. With E2E_SCREENSHOT_DIR set, the
// composer with chips and the history are saved at 390 and 1280 px, light and dark.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { composer, messages, openChat, waitForCompleted } from "./support/chat";
import { expect, test } from "./support/fixtures";

test.describe.configure({ timeout: 60_000 });

const FIXTURES = path.resolve("tests/fixtures/files");

async function dropFiles(page: Page, names: string[]): Promise<void> {
  const files = names.map((name) => ({
    name,
    type: name.endsWith(".png") ? "image/png" : "application/pdf",
    base64: readFileSync(path.join(FIXTURES, name)).toString("base64"),
  }));
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const file of list) {
      const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
      data.items.add(new File([bytes], file.name, { type: file.type }));
    }
    return data;
  }, files);
  const form = page.getByRole("form", { name: "Message composer" });
  await form.dispatchEvent("dragenter", { dataTransfer: transfer });
  await form.dispatchEvent("dragover", { dataTransfer: transfer });
  await form.dispatchEvent("drop", { dataTransfer: transfer });
}

async function shoot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const width of [390, 1280]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(dir, `${name}-${width}-${scheme}.png`) });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
}

test("drops an image and a PDF, sends them, sees the thumbnail and the quote, reloads and downloads", async ({
  page,
}) => {
  await openChat(page);
  await dropFiles(page, ["photo.png", "report.pdf"]);
  const chips = page.getByTestId("attachment-chip");
  await expect(chips).toHaveCount(2);
  await expect(chips.nth(0)).toHaveAttribute("data-state", "ready");
  await expect(chips.nth(1)).toHaveAttribute("data-state", "ready");
  await expect(chips.nth(1)).toContainText("PDF");

  // Removing a chip before sending takes it out of the message.
  await dropFiles(page, ["photo.png"]);
  await expect(chips).toHaveCount(3);
  await chips.nth(2).getByRole("button", { name: "Remove photo.png" }).click();
  await expect(chips).toHaveCount(2);

  await composer(page).fill("What does report.pdf say?");
  await shoot(page, "composer-chips");
  await composer(page).press("Enter");
  await expect(chips).toHaveCount(0);
  await waitForCompleted(page);

  const user = messages(page, "user").last();
  const image = user.getByRole("img", { name: "photo.png" });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBeGreaterThan(0);
  await expect(user.getByRole("link", { name: "Download report.pdf" })).toBeVisible();
  await expect(messages(page, "assistant").last()).toContainText(
    "Quarterly revenue grew 12 percent",
  );

  await page.reload();
  await waitForCompleted(page);
  const reloaded = messages(page, "user").last();
  await expect(reloaded.getByRole("img", { name: "photo.png" })).toBeVisible();
  await expect
    .poll(() =>
      reloaded
        .getByRole("img", { name: "photo.png" })
        .evaluate((element: HTMLImageElement) => element.naturalWidth),
    )
    .toBeGreaterThan(0);
  await shoot(page, "history-files");

  const download = page.waitForEvent("download");
  await reloaded.getByRole("link", { name: "Download report.pdf" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("report.pdf");
  const saved = await file.path();
  expect(readFileSync(saved).equals(readFileSync(path.join(FIXTURES, "report.pdf")))).toBe(true);
});
