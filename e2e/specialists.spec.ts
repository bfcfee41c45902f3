// Specialists in a group workstream: a new workstream opens with its agent's greeting; asked to
// consult the Analyst, the chief's answer carries the Analyst's part collapsed under it, which
// opens from the keyboard and is still there after a reload (it is kept with the message).
import {
  answerText,
  messages,
  send,
  signUpViaApi,
  waitForCompleted,
  withToolCall,
} from "./support/chat";
import { expect, test } from "./support/fixtures";

test("the chief consults the Analyst: the nested part shows collapsed, opens by keyboard and survives a reload", async ({
  page,
}) => {
  await signUpViaApi(page);
  const created = await page.request.post("/api/workstreams", {
    data: { mode: "group", title: "Offers" },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/w/${id}`);
  await expect(page.getByTestId("agent-greeting")).toContainText("Hi, I'm Chief.");

  await send(
    page,
    withToolCall("Ask the Analyst.", "consult_specialist", {
      specialist: "Analyst",
      question: "Which of the two offers is cheaper over two years?",
    }),
  );
  await waitForCompleted(page);
  const answer = messages(page, "assistant").last();
  const part = answer.locator('[data-part="specialist"][data-agent-id="analyst"]');
  await expect(part).toHaveAttribute("data-status", "done");
  await expect(part).toContainText("Analyst");
  await expect(part).toContainText("Which of the two offers is cheaper over two years?");
  // Collapsed: the Analyst's answer is there but not shown until opened.
  await expect(part).not.toHaveAttribute("open", "");
  const inside = part.locator('[data-part="text"]');
  await expect(inside).toBeHidden();
  expect(await answerText(page)).toContain("I asked Analyst. Here is what they said:");

  // Keyboard: Tab reaches the disclosure, Enter opens it.
  const summary = part.locator("summary");
  await summary.focus();
  await expect(summary).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(part).toHaveAttribute("open", "");
  await expect(inside).toBeVisible();
  const said = ((await inside.textContent()) ?? "").trim();
  expect(said.length).toBeGreaterThan(0);

  await page.reload();
  const kept = messages(page, "assistant")
    .last()
    .locator('[data-part="specialist"][data-agent-id="analyst"]');
  await expect(kept).toHaveAttribute("data-status", "done");
  await expect(kept).not.toHaveAttribute("open", "");
  await kept.locator("summary").focus();
  await page.keyboard.press("Space");
  await expect(kept.locator('[data-part="text"]')).toContainText(said.split("\n")[0] ?? said);
});
