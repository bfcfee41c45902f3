// Helpers for the chat page: a signed-up person with their Chief workstream, the page's
// selectors (the ones docs/testing.md documents), and turns driven through the API.
import { expect, type Page } from "@playwright/test";
import { newUser, type TestUser } from "./auth";

/** Signs a new person up through the API (the page shares the cookies). */
export async function signUpViaApi(page: Page, user: TestUser = newUser()): Promise<TestUser> {
  const response = await page.request.post("/api/auth/sign-up/email", {
    data: { name: user.name, email: user.email, password: user.password },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return user;
}

/** The signed-in person's direct workstream with Chief; returns its id. */
export async function createChiefWorkstream(page: Page): Promise<string> {
  const response = await page.request.post("/api/workstreams", {
    data: { mode: "direct", agentId: "chief" },
  });
  expect(response.status()).toBe(201);
  const body: unknown = await response.json();
  const id = typeof body === "object" && body !== null && "id" in body ? body.id : null;
  if (typeof id !== "string") throw new Error(`No workstream id in ${JSON.stringify(body)}`);
  return id;
}

/** A new person on their Chief chat page; returns the workstream id. */
export async function openChat(page: Page): Promise<string> {
  await signUpViaApi(page);
  const id = await createChiefWorkstream(page);
  await page.goto(`/w/${id}`);
  await expect(composer(page)).toBeVisible();
  return id;
}

/** Runs a whole turn through the API (the response ends when the turn does). */
export async function sendViaApi(page: Page, workstreamId: string, text: string): Promise<void> {
  const id = `msg_e2e_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const response = await page.request.post(`/api/workstreams/${workstreamId}/messages`, {
    data: { message: { id, role: "user", parts: [{ type: "text", text }] } },
  });
  expect(response.ok()).toBe(true);
  expect(await response.text()).toContain("[DONE]");
}

export const composer = (page: Page) => page.getByRole("textbox", { name: "Message" });
export const sendButton = (page: Page) => page.getByRole("button", { name: "Send" });
export const stopButton = (page: Page) => page.getByRole("button", { name: "Stop" });
export const turnStatus = (page: Page) => page.getByTestId("turn-status");
export const messages = (page: Page, role?: "user" | "assistant") =>
  page.locator(role ? `[data-message-id][data-role="${role}"]` : "[data-message-id]");

/** The visible answer text of the last assistant message (its text parts only). */
export async function answerText(page: Page): Promise<string> {
  const texts = await messages(page, "assistant")
    .last()
    .locator('[data-part="text"]')
    .allInnerTexts();
  return texts.join("\n").trim();
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press("Enter");
}

/**
 * Starts recording every state the turn status line takes, in the page itself: a look from the
 * test can miss a short running state on a loaded machine, the page's own observer cannot.
 * Returns a reader of the states seen so far, in order, without repeats.
 */
export async function recordTurnStates(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    const holder = window as unknown as { turnStates?: string[] };
    holder.turnStates = seen;
    const read = () => {
      const state = document
        .querySelector('[data-testid="turn-status"]')
        ?.getAttribute("data-state");
      if (state && seen.at(-1) !== state) seen.push(state);
    };
    read();
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-state"],
    });
  });
  return () =>
    page.evaluate(() => (window as unknown as { turnStates?: string[] }).turnStates ?? []);
}

export async function waitForCompleted(page: Page, timeout = 20_000): Promise<void> {
  await expect(turnStatus(page)).toHaveAttribute("data-state", "completed", { timeout });
}

/**
 * A message that asks the offline model for a tool call: a real model would choose the tool by
 * itself, so a test that needs the call says so (`[tool:NAME:JSON]`, docs/offline-model.md).
 */
export function withToolCall(text: string, tool: string, args: Record<string, unknown>): string {
  return `${text} [tool:${tool}:${JSON.stringify(args)}]`;
}
