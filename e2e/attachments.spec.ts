// Attachments in Chromium: an image and a PDF dropped on the composer upload as chips with a
// progress bar, go with the message, come back as a thumbnail and a file card after a reload,
// the agent quotes the PDF, and the card downloads the file. Files also come by the picker and by
// pasting; a send the server refuses gives the chips back, and Retry sends the files again. With
// E2E_SCREENSHOT_DIR set, the composer with chips, the history, the chips given back and the
// retried message are saved at 390 and 1280 px, light and dark.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import {
  composer,
  messages,
  openChat,
  stopButton,
  turnStatus,
  waitForCompleted,
} from "./support/chat";
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

async function pickFile(page: Page, name: string): Promise<void> {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach files" }).click();
  await (await chooser).setFiles(path.join(FIXTURES, name));
}

async function pasteImage(page: Page, name: string): Promise<void> {
  const base64 = readFileSync(path.join(FIXTURES, name)).toString("base64");
  await composer(page).evaluate(
    (element, file) => {
      const data = new DataTransfer();
      const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
      data.items.add(new File([bytes], file.name, { type: "image/png" }));
      element.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    },
    { name, base64 },
  );
}

/** With `focus`, that element is scrolled to the top of its list before each picture. */
async function shoot(page: Page, name: string, focus?: Locator): Promise<void> {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const width of [390, 1280]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.emulateMedia({ colorScheme: scheme });
      // Only the message list scrolls (scrollIntoView would shift the page's fixed frame too).
      await focus?.evaluate((element) => {
        let list = element.parentElement;
        while (list && !/auto|scroll/.test(getComputedStyle(list).overflowY)) {
          list = list.parentElement;
        }
        if (!list) return;
        const offset = element.getBoundingClientRect().top - list.getBoundingClientRect().top;
        list.scrollTop += offset - 16;
      });
      // Transitions finished: a colour still easing from the other scheme is not what people see.
      await page.screenshot({
        path: path.join(dir, `${name}-${width}-${scheme}.png`),
        animations: "disabled",
      });
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
  // The answer names what the message carried (reading it is a tool call a real model chooses;
  // tests/integration/attachments.test.ts calls read_attachment with a trigger).
  const answer = messages(page, "assistant").last();
  await expect(answer).toContainText("You attached photo.png (PNG image, 73 B)");
  await expect(answer).toContainText("report.pdf (PDF, 929 B, 2 pages)");

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

test("files come by the picker and by pasting; a send the server refuses gives back the text and the chips", async ({
  page,
}) => {
  const workstreamId = await openChat(page);
  await pickFile(page, "report.pdf");
  await pasteImage(page, "photo.png");
  const chips = page.getByTestId("attachment-chip");
  await expect(chips).toHaveCount(2);
  await expect(chips.nth(0)).toHaveAttribute("data-state", "ready");
  await expect(chips.nth(0)).toContainText("report.pdf");
  await expect(chips.nth(1)).toHaveAttribute("data-state", "ready");
  await expect(chips.nth(1)).toContainText("photo.png");

  // A turn started elsewhere (another tab, through the API) keeps the workstream busy: the
  // server refuses this send with 409.
  const elsewhere = page.request
    .post(`/api/workstreams/${workstreamId}/messages`, {
      data: {
        message: {
          id: `msg_e2e_busy_${Date.now().toString(36)}`,
          role: "user",
          parts: [{ type: "text", text: "[hang] busy elsewhere" }],
        },
      },
    })
    .catch(() => null);
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/workstreams/${workstreamId}`);
      return ((await response.json()) as { activeTurn: unknown }).activeTurn !== null;
    })
    .toBe(true);
  await composer(page).fill("What do these say?");
  const refused = page.waitForResponse(
    (response) => response.url().endsWith("/messages") && response.request().method() === "POST",
  );
  await composer(page).press("Enter");
  expect((await refused).status()).toBe(409);
  await expect(composer(page)).toHaveValue("What do these say?");
  await expect(chips).toHaveCount(2);
  await expect(chips.nth(0)).toContainText("report.pdf");
  await expect(chips.nth(1)).toContainText("photo.png");
  await expect(chips.nth(1).locator("img")).toBeVisible();
  await expect(stopButton(page)).toBeVisible();
  await shoot(page, "refused-chips-restored");

  // Once the other turn is stopped, the same chips go with the message.
  await stopButton(page).click();
  await expect(turnStatus(page)).toHaveAttribute("data-state", "cancelled");
  await elsewhere;
  await composer(page).press("Enter");
  await expect(chips).toHaveCount(0);
  await waitForCompleted(page);
  const user = messages(page, "user").last();
  await expect(user.getByRole("img", { name: "photo.png" })).toBeVisible();
  await expect(user.getByRole("link", { name: "Download report.pdf" })).toBeVisible();
});

test("Retry of a failed turn sends its files again and keeps them on the message", async ({
  page,
}) => {
  await openChat(page);
  await pickFile(page, "photo.png");
  const chips = page.getByTestId("attachment-chip");
  await expect(chips.nth(0)).toHaveAttribute("data-state", "ready");
  // The offline model fails the first 3 calls of this prompt; one turn makes 3 (with retries).
  await composer(page).fill("[fail:3] what is in this picture?");
  await composer(page).press("Enter");
  await expect(turnStatus(page)).toHaveAttribute("data-state", "failed");

  const sent = page.waitForRequest(
    (request) => request.url().endsWith("/messages") && request.method() === "POST",
  );
  await page.getByTestId("turn-failure").getByRole("button", { name: "Retry" }).click();
  const body = (await sent).postDataJSON() as {
    message: { parts: Array<{ type: string; filename?: string; url?: string }> };
  };
  expect(body.message.parts.filter((part) => part.type === "file")).toEqual([
    expect.objectContaining({ filename: "photo.png", url: expect.stringMatching(/^file:file_/) }),
  ]);
  await waitForCompleted(page);
  const user = messages(page, "user").last();
  await expect(user.getByRole("img", { name: "photo.png" })).toBeVisible();
  await expect(messages(page, "assistant").last()).toContainText("photo.png");
  await shoot(page, "retried-with-files", user);
});
