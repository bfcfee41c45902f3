// Tool approvals in the chat: a request to send a message to another workstream stops at an
// approval card; Approve runs it and the same turn completes, Deny is acknowledged by the agent,
// a reload keeps the card, and an answer from a second tab updates the first one live.
import type { Page } from "@playwright/test";
import {
  answerText,
  composer,
  messages,
  openChat,
  send,
  stopButton,
  turnStatus,
  waitForCompleted,
  withToolCall,
} from "./support/chat";
import { expect, test } from "./support/fixtures";

const card = (page: Page) => page.getByTestId("approval-card");

/** A group workstream of the signed-in person to send messages to. */
async function createTarget(page: Page, title: string): Promise<string> {
  const response = await page.request.post("/api/workstreams", {
    data: { mode: "group", title },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A message asking the agent to send `text` to the workstream titled `title`. */
const sendTo = (title: string, text: string) =>
  withToolCall("Pass this on.", "send_message", {
    workstreamId: title,
    text,
    reason: "You asked me to pass this on.",
  });

/** Asks the agent to write to `title`; the turn stops at the approval card. */
async function askToSend(page: Page, title: string, text: string): Promise<void> {
  await send(page, sendTo(title, text));
  await expect(turnStatus(page)).toHaveAttribute("data-state", "suspended");
  await expect(card(page)).toHaveAttribute("data-state", "pending");
}

test.describe("tool approvals", () => {
  test("approve: the tool runs and the same turn completes; the target is marked new", async ({
    page,
  }) => {
    await openChat(page);
    const targetId = await createTarget(page, "Launch notes");
    await askToSend(page, "Launch notes", "the launch moved to May");
    // The card says what and why, with the arguments in plain rows.
    await expect(card(page)).toContainText("Send a message to another of your workstreams");
    await expect(card(page)).toContainText("Launch notes");
    await expect(card(page)).toContainText("the launch moved to May");
    await expect(card(page)).toContainText("You asked me to pass this on.");
    // While it waits, Stop is offered instead of Send.
    await expect(stopButton(page)).toBeVisible();
    // Keyboard: the Approve button is reachable and shows where focus is.
    const approve = card(page).getByRole("button", { name: "Approve" });
    await approve.focus();
    await expect(approve).toBeFocused();
    await page.keyboard.press("Enter");
    await waitForCompleted(page);
    expect(await answerText(page)).toContain("I sent the message to “Launch notes”.");
    // One answer for the whole turn: the tool call, done, then the text.
    await expect(messages(page, "assistant")).toHaveCount(1);
    await expect(
      messages(page, "assistant").locator('[data-part="tool"][data-tool-name="send_message"]'),
    ).toHaveAttribute("data-tool-state", "output-available");
    // The target's sidebar row says something new arrived; opening it shows the message.
    const row = page.locator(`[data-sidebar-item][data-workstream-id="${targetId}"]`);
    await expect(row.getByTestId("unread-mark")).toBeVisible();
    await row.click();
    await expect(page.getByTestId("relayed-from")).toBeVisible();
    await expect(messages(page, "assistant").last()).toContainText("the launch moved to May");
    await expect(row.getByTestId("unread-mark")).toHaveCount(0);
  });

  test("deny with a reason: the agent acknowledges it and nothing is sent", async ({ page }) => {
    await openChat(page);
    await createTarget(page, "Board room");
    await askToSend(page, "Board room", "we are over budget");
    await card(page).getByRole("textbox", { name: "Reason (optional)" }).fill("not before Friday");
    await card(page).getByRole("button", { name: "Deny" }).click();
    await waitForCompleted(page);
    expect(await answerText(page)).toContain("was not approved (“not before Friday”)");
    await expect(
      messages(page, "assistant").locator('[data-part="tool"][data-tool-name="send_message"]'),
    ).toHaveAttribute("data-tool-state", "output-denied");
  });

  test("a reload while the turn waits keeps the card, and it can still be answered", async ({
    page,
  }) => {
    await openChat(page);
    await createTarget(page, "Night shift");
    await askToSend(page, "Night shift", "lock the gate");
    await page.reload();
    await expect(composer(page)).toBeVisible();
    await expect(turnStatus(page)).toHaveAttribute("data-state", "suspended");
    await expect(card(page)).toHaveAttribute("data-state", "pending");
    await card(page).getByRole("button", { name: "Approve" }).click();
    await waitForCompleted(page);
    expect(await answerText(page)).toContain("I sent the message to “Night shift”.");
  });

  test("approve from a second tab: the first tab's card updates and follows the turn live", async ({
    page,
    context,
  }) => {
    const workstreamId = await openChat(page);
    await createTarget(page, "Harbour log");
    await askToSend(page, "Harbour log", "the ferry is late");
    const second = await context.newPage();
    await second.goto(`/w/${workstreamId}`);
    await expect(card(second)).toHaveAttribute("data-state", "pending");
    await card(second).getByRole("button", { name: "Approve" }).click();
    await waitForCompleted(second);
    // The first tab heard of it: its card is answered and the turn it shows completed.
    await waitForCompleted(page);
    expect(await answerText(page)).toContain("I sent the message to “Harbour log”.");
    await expect(card(page)).toHaveCount(0);
    await second.close();
  });
});

test.describe("tool permissions", () => {
  test("approve and remember: the same call then runs without asking, until it is forgotten", async ({
    page,
  }) => {
    await openChat(page);
    await createTarget(page, "Launch notes");
    await askToSend(page, "Launch notes", "first note");
    await card(page)
      .getByRole("checkbox", {
        name: "Also allow messages to “Launch notes” for 7 days without asking",
      })
      .check();
    await card(page).getByRole("button", { name: "Approve" }).click();
    await waitForCompleted(page);
    await send(page, sendTo("Launch notes", "second note"));
    await waitForCompleted(page);
    expect(await answerText(page)).toContain("I sent the message to “Launch notes”.");
    await expect(card(page)).toHaveCount(0);
    // The sheet lists it; forgetting it makes the next call ask again.
    await page.getByRole("button", { name: "Tool permissions" }).click();
    const sheet = page.getByRole("dialog", { name: "Tool permissions" });
    await expect(sheet.getByText("to “launch notes”")).toBeVisible();
    await sheet.getByRole("button", { name: "Forget send_message to launch notes" }).click();
    await expect(sheet.getByRole("status")).toHaveText("Forgotten: it asks again.");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("button", { name: "Tool permissions" })).toBeFocused();
    await askToSend(page, "Launch notes", "third note");
  });

  test("'Run every tool' in the sheet: nothing asks; the admin's Forbidden then refuses it", async ({
    page,
  }) => {
    // Two turns and a visit to the admin console: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    await openChat(page);
    await createTarget(page, "Harbour log");
    await page.getByRole("button", { name: "Tool permissions" }).click();
    const sheet = page.getByRole("dialog", { name: "Tool permissions" });
    await sheet.getByRole("radio", { name: /Run every tool/ }).check();
    await expect(sheet.getByRole("status")).toHaveText("Saved.");
    await page.keyboard.press("Escape");
    await send(page, sendTo("Harbour log", "the ferry is late"));
    await waitForCompleted(page);
    expect(await answerText(page)).toContain("I sent the message to “Harbour log”.");
    // The organization's policy comes first.
    const chatUrl = page.url();
    await page.goto("/admin/tool-policy");
    await page.getByRole("combobox", { name: "Rule for send_message" }).selectOption("forbidden");
    await page.getByRole("button", { name: "Save policy" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await page.goto(chatUrl);
    await send(page, sendTo("Harbour log", "and again"));
    await waitForCompleted(page);
    expect(await answerText(page)).toContain("forbids this tool");
    await expect(card(page)).toHaveCount(0);
  });
});
