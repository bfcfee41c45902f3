// The chat page in Chromium against the offline model: streaming, resume after reload and in a
// second tab, Stop, failure with Retry, history paging, the draft, and the keyboard.

import {
  answerText,
  composer,
  messages,
  openChat,
  recordTurnStates,
  send,
  sendButton,
  sendViaApi,
  stopButton,
  turnStatus,
  waitForCompleted,
  wordCount,
} from "./support/chat";

// Turns stream in real time, and the first page a fresh server renders takes a while.
test.describe.configure({ timeout: 60_000 });

import { expect, newSession, test } from "./support/fixtures";

test("sends a message and shows the streamed reply", async ({ page }) => {
  await openChat(page);
  // The page records the status line's states itself: on a loaded machine the running state
  // (four chunks 400 ms apart, then the reveal) can come and go between two looks of the test.
  const states = await recordTurnStates(page);
  await send(
    page,
    "[slow:400] [echo] The quick brown fox jumps over the lazy dog. It naps. Then it wakes, stretches, trots to the river and drinks. The dog sleeps on.",
  );
  await expect(composer(page)).toHaveValue("");
  await expect(messages(page, "user")).toHaveText(/The quick brown fox/);
  await waitForCompleted(page);
  const seen = await states();
  expect(seen.at(-1)).toBe("completed");
  expect(seen.slice(0, -1)).toEqual(
    expect.arrayContaining([expect.stringMatching(/pending|active/)]),
  );
  await expect(messages(page, "assistant")).toHaveCount(1);
  expect(await answerText(page)).toBe(
    "The quick brown fox jumps over the lazy dog. It naps. Then it wakes, stretches, trots to the river and drinks. The dog sleeps on.",
  );
  await expect(messages(page, "assistant")).toHaveAttribute("data-message-id", /.+/);
  await expect(messages(page, "assistant")).toContainText("Chief");
});

test("a reload mid-stream shows the partial answer and completes it without duplicates", async ({
  page,
}) => {
  await openChat(page);
  await send(page, "[slow:150] [words:200] tell me about rivers");
  await expect(messages(page, "assistant").locator('[data-part="text"]')).not.toBeEmpty();
  await page.reload();
  await waitForCompleted(page);
  await expect(messages(page, "user")).toHaveCount(1);
  await expect(messages(page, "assistant")).toHaveCount(1);
  expect(wordCount(await answerText(page))).toBe(200);
});

test("a second tab follows the same turn live", async ({ page, context }) => {
  const id = await openChat(page);
  // Long enough that the second tab loads (and hydrates, on a busy machine) while it runs.
  await send(page, "[slow:150] [words:400] a second look");
  await expect(messages(page, "assistant").locator('[data-part="text"]')).not.toBeEmpty();

  const second = await context.newPage();
  await second.goto(`/w/${id}`);
  await expect(turnStatus(second)).toHaveAttribute("data-state", /pending|active/);
  await expect(stopButton(second)).toBeVisible();
  await waitForCompleted(second);
  await waitForCompleted(page);
  await expect(messages(second, "assistant")).toHaveCount(1);
  const text = await answerText(second);
  expect(wordCount(text)).toBe(400);
  expect(await answerText(page)).toBe(text);
});

test("after a network drop the page says it is offline and finishes the answer once back", async ({
  page,
  context,
}) => {
  await openChat(page);
  await send(page, "[slow:150] [words:200] through a tunnel");
  await expect(messages(page, "assistant").locator('[data-part="text"]')).not.toBeEmpty();
  await context.setOffline(true);
  await expect(page.getByTestId("connection-status")).toContainText("You're offline");
  await page.waitForTimeout(1_000);
  await context.setOffline(false);
  await waitForCompleted(page);
  await expect(page.getByTestId("connection-status")).toBeHidden();
  await expect(messages(page, "assistant")).toHaveCount(1);
  expect(wordCount(await answerText(page))).toBe(200);
});

test("UI14 Stop ends the turn, keeps the partial answer and marks it Stopped at once", async ({
  page,
}) => {
  await openChat(page);
  await send(page, "[hang] wait for it");
  const answer = messages(page, "assistant").locator('[data-part="text"]');
  await expect(answer).not.toBeEmpty();
  await stopButton(page).click();
  await expect(turnStatus(page)).toHaveAttribute("data-state", "cancelled");
  await expect(turnStatus(page)).toContainText("Stopped");
  await expect(stopButton(page)).toBeHidden();
  // The marker is on the answer without a reload (its footer shows once the reveal is done).
  await expect(messages(page, "assistant")).toContainText("Stopped");
  const partial = await answerText(page);
  expect(partial.length).toBeGreaterThan(0);

  await page.reload();
  await expect(messages(page, "assistant")).toHaveCount(1);
  expect(await answerText(page)).toBe(partial);
  await expect(messages(page, "assistant")).toContainText("Stopped");
  await expect(turnStatus(page)).toHaveAttribute("data-state", "cancelled");
});

test("UI8 while a turn runs Stop takes Send's place, and Escape stops it", async ({ page }) => {
  await openChat(page);
  await send(page, "[hang] keep going");
  await expect(stopButton(page)).toBeVisible();
  await expect(sendButton(page)).toHaveCount(0);
  await expect(page.getByText("Chief is replying.")).toBeVisible();
  // Stop sits exactly in Send's place: beside the attach button, no other button.
  const form = page.locator("form").filter({ has: composer(page) });
  await expect(form.getByRole("button")).toHaveCount(2);
  await expect(form.getByRole("button").last()).toHaveAccessibleName(/stop/i);

  await composer(page).fill("a second message");
  await composer(page).press("Enter");
  await expect(composer(page)).toHaveValue("a second message");
  await expect(messages(page, "user")).toHaveCount(1);

  await page.keyboard.press("Escape");
  await expect(turnStatus(page)).toHaveAttribute("data-state", "cancelled");
  await expect(stopButton(page)).toHaveCount(0);
  await expect(sendButton(page)).toBeEnabled();
});

test("UI14 while offline the status line does not say the agent is writing", async ({
  page,
  context,
}) => {
  await openChat(page);
  // Long enough (about 10 s of writing) that the answer is still coming when the connection
  // drops, even when a loaded machine takes seconds between the test's steps.
  await send(page, "[slow:400] [words:200] through a tunnel");
  await expect(turnStatus(page)).toContainText("is writing");
  await context.setOffline(true);
  await expect(page.getByTestId("connection-status")).toContainText("You're offline");
  await expect(turnStatus(page)).not.toContainText("writing");
  await expect(turnStatus(page)).toContainText("Waiting for the connection");
  await context.setOffline(false);
  await waitForCompleted(page, 40_000);
});

test("UI6 a model failure shows the reason and Retry under its message, and Retry answers it", async ({
  page,
}) => {
  await openChat(page);
  // The offline model fails the first 3 calls of this prompt; one turn makes 3 (with retries).
  await send(page, "[fail:3] please answer");
  await expect(turnStatus(page)).toHaveAttribute("data-state", "failed");
  const failure = page.getByTestId("turn-failure");
  await expect(failure).toBeVisible();
  // "failed" once, however the reason is worded.
  expect(((await failure.textContent()) ?? "").match(/\bfailed\b/gi)?.length).toBe(1);
  // Right under the message it belongs to, not above the composer far below.
  const question = messages(page, "user").last();
  const questionBox = await question.boundingBox();
  const failureBox = await failure.boundingBox();
  const composerBox = await composer(page).boundingBox();
  if (!questionBox || !failureBox || !composerBox) throw new Error("not laid out");
  expect(failureBox.y).toBeGreaterThanOrEqual(questionBox.y + questionBox.height);
  expect(failureBox.y - (questionBox.y + questionBox.height)).toBeLessThan(48);
  expect(composerBox.y - (failureBox.y + failureBox.height)).toBeGreaterThan(100);
  const userMessageId = await messages(page, "user").getAttribute("data-message-id");

  await failure.getByRole("button", { name: "Retry" }).click();
  await waitForCompleted(page);
  await expect(failure).toHaveCount(0);
  await expect(messages(page, "user")).toHaveCount(1);
  await expect(messages(page, "user")).toHaveAttribute("data-message-id", userMessageId ?? "");
  await expect(messages(page, "assistant")).toHaveCount(1);
  expect(wordCount(await answerText(page))).toBeGreaterThan(0);
});

test("a failure stays visible with Retry after a reload", async ({ page }) => {
  await openChat(page);
  await send(page, "[fail] no luck");
  await expect(turnStatus(page)).toHaveAttribute("data-state", "failed");
  await page.reload();
  await expect(turnStatus(page)).toHaveAttribute("data-state", "failed");
  await expect(
    page.getByTestId("turn-failure").getByRole("button", { name: "Retry" }),
  ).toBeVisible();
});

test("a tool call shows its name, input and output", async ({ page }) => {
  await openChat(page);
  await send(page, "What time is it? [tool:current_time]");
  await waitForCompleted(page);
  const tool = messages(page, "assistant").locator('[data-part="tool"]');
  await expect(tool).toHaveAttribute("data-tool-name", "current_time");
  await expect(tool).toContainText("Done");
  await tool.locator("summary").click();
  await expect(tool).toContainText("Input");
  await expect(tool).toContainText("Output");
});

test("older history loads on scroll, keeping the view in place", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const id = await openChat(page);
  for (const topic of ["alpha", "beta", "gamma", "delta"]) {
    await sendViaApi(page, id, `[long] ${topic}`);
  }
  await page.reload();
  await expect(messages(page)).toHaveCount(6);
  await expect(messages(page, "user").first()).toHaveText(/beta/);

  const firstShown = messages(page).first();
  const firstId = await firstShown.getAttribute("data-message-id");
  await page.locator('section[aria-label="Messages"]').hover();
  for (let i = 0; i < 40 && (await messages(page).count()) < 8; i++) {
    await page.mouse.wheel(0, -1500);
    await page.waitForTimeout(100);
  }
  await expect(messages(page)).toHaveCount(8);
  await expect(messages(page, "user").first()).toHaveText(/alpha/);
  // The message that was first is still there, below the older ones: the view did not jump
  // to the very top of the new content.
  const kept = page.locator(`[data-message-id="${firstId}"]`);
  await expect(kept).toBeAttached();
  const scrollTop = await page
    .locator('section[aria-label="Messages"]')
    .evaluate((section) => section.parentElement?.parentElement?.scrollTop ?? 0);
  expect(scrollTop).toBeGreaterThan(0);
});

test("the draft survives a reload and a failed send", async ({ page }) => {
  await openChat(page);
  await composer(page).fill("a thought worth keeping");
  await page.reload();
  await expect(composer(page)).toHaveValue("a thought worth keeping");

  await page.route("**/api/workstreams/*/messages", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({
          status: 503,
          json: { error: { code: "unavailable:test", message: "The server is busy." } },
        })
      : route.continue(),
  );
  await composer(page).press("Enter");
  await expect(
    page.getByRole("region", { name: "Notifications" }).getByRole("alert"),
  ).toContainText("The server is busy.");
  await expect(composer(page)).toHaveValue("a thought worth keeping");
  await expect(messages(page, "user")).toHaveCount(0);
  await page.unroute("**/api/workstreams/*/messages");
  await page.reload();
  await expect(composer(page)).toHaveValue("a thought worth keeping");
});

test("keyboard: / focuses the composer", async ({ page }) => {
  await openChat(page);
  await page.getByRole("heading", { name: "Start with Chief" }).click();
  await expect(composer(page)).not.toBeFocused();
  await page.keyboard.press("/");
  await expect(composer(page)).toBeFocused();
  await expect(composer(page)).toHaveValue("");
});

test("the offline model is explained, with its trigger table", async ({ page }) => {
  await openChat(page);
  await expect(page.getByText("You're talking to the offline model")).toBeVisible();
  await page.getByRole("button", { name: "See all triggers" }).click();
  const dialog = page.getByRole("dialog", { name: "Offline model triggers" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("[tool:NAME]");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the conversation and composer fit the screen", async ({ page }) => {
    await openChat(page);
    await send(page, "[echo] Small screens work too.");
    await waitForCompleted(page);
    await expect(sendButton(page)).toBeInViewport();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

/** Contrast between Send's drawn colour (its opacity included) and the composer behind it. */
async function sendContrast(page: import("@playwright/test").Page): Promise<number> {
  return sendButton(page).evaluate((button) => {
    const parse = (value: string) => {
      const match = value.match(/rgba?\(([^)]+)\)/);
      if (!match?.[1]) throw new Error(`unexpected colour ${value}`);
      const [r = 0, g = 0, b = 0, a = 1] = match[1]
        .split(/[,\s/]+/)
        .filter(Boolean)
        .map(Number);
      return { r, g, b, a };
    };
    const form = button.closest("form");
    if (!form) throw new Error("no composer");
    const behind = parse(getComputedStyle(form).backgroundColor);
    const style = getComputedStyle(button);
    const own = parse(style.backgroundColor);
    const alpha = own.a * Number(style.opacity);
    const mix = (front: number, back: number) => front * alpha + back * (1 - alpha);
    const drawn = { r: mix(own.r, behind.r), g: mix(own.g, behind.g), b: mix(own.b, behind.b) };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const [light, dark] = [luminance(drawn), luminance(behind)].sort((x, y) => y - x);
    return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
  });
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`UI13 a disabled Send looks disabled and an enabled one stands out (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await openChat(page);
    await expect(sendButton(page)).toBeDisabled();
    // Polled: the colours ease between the two states.
    await expect.poll(() => sendContrast(page)).toBeLessThan(1.5);
    await composer(page).fill("hello");
    await expect(sendButton(page)).toBeEnabled();
    await expect.poll(() => sendContrast(page)).toBeGreaterThanOrEqual(3);
  });
}

test("UI8 the keyboard hint shows with a mouse and not on a touch screen", async ({ browser }) => {
  for (const hasTouch of [false, true]) {
    const { context, page } = await newSession(browser, {
      hasTouch,
      viewport: { width: 1280, height: 800 },
    });
    try {
      await openChat(page);
      const hint = page.getByText("Enter to send · Shift+Enter for a new line");
      if (hasTouch) await expect(hint).toBeHidden();
      else await expect(hint).toBeVisible();
    } finally {
      await context.close();
    }
  }
});
