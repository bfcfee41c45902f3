// `npm run dev` opened at http://127.0.0.1 rather than localhost: the page must hydrate, so the
// controls that need JavaScript work and an answer streams in.
import { DEMO, HOME, signIn } from "../support/auth";
import { answerText, composer, send, waitForCompleted } from "../support/chat";
import { expect, test } from "../support/fixtures";

test("next dev opened at 127.0.0.1: sign in, start a workstream, get a streamed answer", async ({
  page,
  baseURL,
}) => {
  expect(new URL(baseURL ?? "").hostname).toBe("127.0.0.1");
  await signIn(page, { email: DEMO.admin.email, password: DEMO.password });
  await expect(page).toHaveURL(HOME);

  // The button is a client control: it does nothing on a page that did not hydrate.
  const nav = page.getByRole("navigation", { name: "Workstreams" });
  await nav.getByRole("button", { name: "New workstream" }).click();
  await expect(page).toHaveURL(/\/w\/ws_/);

  await send(page, "[echo] Hello from the dev server at its loopback address.");
  await waitForCompleted(page, 60_000);
  expect(await answerText(page)).toBe("Hello from the dev server at its loopback address.");
  await expect(composer(page)).toHaveValue("");
});
