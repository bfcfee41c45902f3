// The /w/<id> page answers with the right HTTP status (issue 10, item 5): the lookup runs before
// the loading skeleton streams, so a page that cannot be shown is a real 404.
import { createChiefWorkstream, openChat, signUpViaApi } from "./support/chat";
import { expect, newSession, test } from "./support/fixtures";

async function createGroupWorkstream(page: import("@playwright/test").Page): Promise<string> {
  const response = await page.request.post("/api/workstreams", { data: { mode: "group" } });
  expect(response.status()).toBe(201);
  const body: unknown = await response.json();
  const id = typeof body === "object" && body !== null && "id" in body ? body.id : null;
  if (typeof id !== "string") throw new Error(`No workstream id in ${JSON.stringify(body)}`);
  return id;
}

test("UI5 a missing workstream page answers 404", async ({ page }) => {
  await signUpViaApi(page);
  const response = await page.goto("/w/ws_doesnotexist0000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("UI5 a deleted workstream page answers 404", async ({ page }) => {
  await signUpViaApi(page);
  const id = await createGroupWorkstream(page);
  expect((await page.request.post(`/api/workstreams/${id}/archive`)).ok()).toBe(true);
  expect((await page.request.delete(`/api/workstreams/${id}`)).ok()).toBe(true);
  const response = await page.goto(`/w/${id}`);
  expect(response?.status()).toBe(404);
});

test("UI5 another member's workstream page answers 404", async ({ page, browser }) => {
  await signUpViaApi(page);
  const id = await createChiefWorkstream(page);
  const other = await newSession(browser);
  try {
    await signUpViaApi(other.page);
    const response = await other.page.goto(`/w/${id}`);
    expect(response?.status()).toBe(404);
  } finally {
    await other.context.close();
  }
});

test("UI5 an existing workstream page answers 200 and streams its skeleton first", async ({
  page,
}) => {
  const id = await openChat(page);
  const response = await page.goto(`/w/${id}`);
  expect(response?.status()).toBe(200);
  expect(await response?.text()).toContain("Loading the conversation");
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
});

test("UI4 a rename shows in the header and the tab title of every open tab without a reload", async ({
  page,
  context,
}) => {
  await signUpViaApi(page);
  const id = await createGroupWorkstream(page);
  await page.goto(`/w/${id}`);
  const other = await context.newPage();
  await other.goto(`/w/${id}`);
  for (const tab of [page, other]) {
    await expect(tab.getByRole("heading", { level: 1 })).toHaveText("New Workstream");
  }

  const renamed = await page.request.patch(`/api/workstreams/${id}`, {
    data: { title: "Quarterly plan" },
  });
  expect(renamed.ok()).toBe(true);
  for (const tab of [page, other]) {
    await expect(tab.getByRole("heading", { level: 1 })).toHaveText("Quarterly plan");
    await expect(tab).toHaveTitle("Quarterly plan · Workstreams");
  }
  await other.close();
});
