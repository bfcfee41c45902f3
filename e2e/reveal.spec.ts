// The reveal on a slow client: with the CPU throttled 4×, a long answer that arrives almost at once
// still appears in steps of at most 24 characters, and the turn reads `completed` only once the
// last character is on screen.

import { openChat, send, waitForCompleted } from "./support/chat";
import { expect, test } from "./support/fixtures";

type Sample = { length: number; state: string | null };

test("T17 a long answer on a 4× slower CPU is revealed in 80+ steps of at most 24 characters", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openChat(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  // Every change of the answer's text, read in the page: its length without whitespace (the
  // markdown renderer may trim a step's trailing space) and the turn's state at that moment.
  await page.evaluate(() => {
    const samples: Array<{ length: number; state: string | null }> = [];
    (window as unknown as { revealSamples: typeof samples }).revealSamples = samples;
    const read = () => {
      const parts = document.querySelectorAll('[data-role="assistant"] [data-part="text"]');
      const text = [...parts].map((part) => part.textContent ?? "").join("");
      const length = text.replace(/\s+/g, "").length;
      const state =
        document.querySelector('[data-testid="turn-status"]')?.getAttribute("data-state") ?? null;
      const last = samples.at(-1);
      if (!last || last.length !== length || last.state !== state) samples.push({ length, state });
    };
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ["data-state"],
    });
  });
  // About 2,000 characters, streamed without pauses between chunks.
  await send(page, "[words:330] [slow:0]");
  await waitForCompleted(page, 60_000);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });

  const samples = await page.evaluate(
    () => (window as unknown as { revealSamples: Sample[] }).revealSamples,
  );
  const lengths = samples.map((sample) => sample.length);
  const final = Math.max(...lengths);
  expect(final).toBeGreaterThanOrEqual(1_600);
  const steps = lengths.slice(1).map((length, i) => length - (lengths[i] ?? 0));
  const growth = steps.filter((step) => step > 0);
  expect(growth.length).toBeGreaterThanOrEqual(80);
  expect(Math.max(...growth)).toBeLessThanOrEqual(24);
  // The turn turned `completed` only with the whole answer on screen.
  const firstCompleted = samples.find((sample) => sample.state === "completed");
  expect(firstCompleted?.length).toBe(final);
});
