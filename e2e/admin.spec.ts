// The admin console end to end in Chromium: members cannot open it; an admin invites someone by
// a copied link, the invited person accepts and joins, the admin changes their role and removes
// them, and the workstream they left behind stays listed as a former member's.
import { DEMO, newUser, signIn, signUp } from "./support/auth";
import { sendViaApi } from "./support/chat";
import { expect, newSession, test } from "./support/fixtures";

test("W1 members get the not-found page at /admin and no admin link", async ({ page }) => {
  await signIn(page, { email: DEMO.member.email, password: DEMO.password });
  await expect(page.getByRole("link", { name: "Admin console" })).toHaveCount(0);
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  const api = await page.request.get("/api/admin/workstreams");
  expect(api.status()).toBe(403);
});

test("W1 an admin invites by link, the invitee joins, changes role and is removed", async ({
  page,
  browser,
}) => {
  // Two people's sessions and a dozen page loads: close to the default 30 s on a busy 2-core box.
  test.setTimeout(60_000);
  await signIn(page, { email: DEMO.admin.email, password: DEMO.password });
  await page.getByRole("link", { name: "Admin console" }).click();
  await expect(page).toHaveURL("/admin");
  await page
    .getByRole("navigation", { name: "Admin console" })
    .getByRole("link", { name: "Members" })
    .click();
  await expect(page).toHaveURL("/admin/members");

  const invitee = newUser("Ines");
  await page.getByLabel("Email").fill(invitee.email);
  await page.getByRole("button", { name: "Create invite link" }).click();
  const link = await page.getByRole("textbox", { name: "Invitation link" }).inputValue();
  expect(link).toMatch(/\/invite\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Pending invitations" })).toBeVisible();

  // The invited person signs up with the invited address, opens the link and accepts.
  const guest = await newSession(browser);
  await signUp(guest.page, invitee);
  await guest.page.goto(new URL(link).pathname);
  await expect(
    guest.page.getByRole("heading", { name: `Join ${DEMO.organizationName}` }),
  ).toBeVisible();
  await guest.page.getByRole("button", { name: "Accept and join" }).click();
  await expect(guest.page.getByRole("button", { name: "Organization", exact: true })).toContainText(
    DEMO.organizationName,
  );
  // They start a workstream in the organization, then the admin takes over.
  await guest.page
    .getByRole("navigation", { name: "Workstreams" })
    .getByRole("button", { name: "New workstream" })
    .click();
  await expect(guest.page).toHaveURL(/\/w\/ws_/);

  await page.reload();
  const row = page.locator(`[data-member="${invitee.email}"]`);
  await expect(row).toBeVisible();
  // The change is saved by a request of its own: reload once it has landed.
  const saved = page.waitForResponse(
    (response) =>
      response.url().includes("/api/admin/members/") && response.request().method() === "PATCH",
  );
  await row.getByRole("combobox", { name: `Role of ${invitee.name}` }).selectOption("admin");
  expect((await saved).ok()).toBe(true);
  await page.reload();
  await expect(row.getByRole("combobox", { name: `Role of ${invitee.name}` })).toHaveValue("admin");

  await row.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
  await expect(row).toHaveCount(0);

  await page
    .getByRole("navigation", { name: "Admin console" })
    .getByRole("link", { name: "Workstreams" })
    .click();
  await page.getByRole("searchbox", { name: "Search workstreams" }).fill(invitee.email);
  const left = page.locator("[data-admin-workstream]:visible");
  await expect(left.filter({ hasText: "Former member" }).first()).toBeVisible();
  await guest.context.close();
});

test("S1 the admin console's network traffic never carries a member's message text", async ({
  page,
  browser,
}) => {
  // Two people's sessions, a turn and two page loads of the console: about 28 s on an idle
  // 2-core machine, too near the 30 s default.
  test.setTimeout(60_000);
  const marker = `Zq7${Date.now().toString(36)}`;
  // Everything the console receives: response bodies, and each live-channel message as the
  // page's EventSource hands it over (a streaming body has no end to wait for).
  const received: string[] = [];
  page.on("response", async (response) => {
    if ((response.headers()["content-type"] ?? "").includes("text/event-stream")) return;
    received.push(await response.text().catch(() => ""));
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __live: string[] }).__live = seen;
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener("message", (event) => seen.push(String(event.data)));
      }
    };
  });
  await signIn(page, { email: DEMO.admin.email, password: DEMO.password });
  await page.getByRole("link", { name: "Admin console" }).click();
  await expect(page).toHaveURL("/admin");

  const member = await newSession(browser);
  await signIn(member.page, { email: DEMO.member.email, password: DEMO.password });
  await member.page
    .getByRole("navigation", { name: "Workstreams" })
    .getByRole("button", { name: "New workstream" })
    .click();
  await expect(member.page).toHaveURL(/\/w\/ws_/);
  const workstreamId = new URL(member.page.url()).pathname.split("/").at(-1) ?? "";
  // Named by the member first: a generated title is metadata admins see (it is made of the
  // conversation's salient words), so the marker must not end up in one.
  const named = await member.page.request.patch(`/api/workstreams/${workstreamId}`, {
    data: { title: "Budget review" },
  });
  expect(named.ok()).toBe(true);
  await sendViaApi(member.page, workstreamId, `[echo] private ${marker} numbers`);

  // The console hears the turn (running, then idle) on its live channel, then reloads.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __live: string[] }).__live.join("\n")))
    .toContain(workstreamId);
  await page.reload();
  await expect(page.locator("[data-admin-workstream]").first()).toBeVisible();
  await page
    .getByRole("navigation", { name: "Admin console" })
    .getByRole("link", { name: "Members" })
    .click();
  await expect(page).toHaveURL("/admin/members");

  const live = await page.evaluate(() => (window as unknown as { __live: string[] }).__live);
  expect(received.length).toBeGreaterThan(3);
  expect([...received, ...live].filter((body) => body.includes(marker))).toEqual([]);
  await member.context.close();
});
