// A new group workstream is named after its first completed turn by the title job, and the name
// reaches the sidebar, the chat header and the tab title live, without a reload.
import { composer, send, signUpViaApi, waitForCompleted } from "./support/chat";
import { expect, test } from "./support/fixtures";

test("T21 a new group workstream gets a generated title live in the sidebar, the header and the tab", async ({
  page,
}) => {
  await signUpViaApi(page);
  const created = await page.request.post("/api/workstreams", { data: { mode: "group" } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/w/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New Workstream");
  await expect(composer(page)).toBeEditable();

  await send(page, "Plan the lighthouse restoration budget for the harbor trust");
  await waitForCompleted(page);

  const header = page.getByRole("heading", { level: 1 });
  await expect(header).toHaveText(/Lighthouse/, { timeout: 10_000 });
  await expect(header).not.toHaveText("New Workstream");
  const title = (await header.textContent()) ?? "";
  expect(title.split(/\s+/).length).toBeLessThanOrEqual(6);
  await expect(page).toHaveTitle(`${title} · Workstreams`);
  const sidebar = page.getByRole("navigation", { name: "Workstreams" });
  await expect(sidebar.getByRole("link", { name: new RegExp(title) }).first()).toBeVisible();
});
