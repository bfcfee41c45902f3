// The `test` every spec imports. Each browser context claims its own client address through
// X-Forwarded-For, because better-auth rate-limits sign-in and sign-up per address (3 per 10 s in
// production builds) and every test runs from 127.0.0.1. The test server trusts that header
// (WORKSTREAMS_TRUST_PROXY=1 in playwright.config.ts), as it would a reverse proxy's.
import { type Browser, type BrowserContextOptions, test as base } from "@playwright/test";

let counter = 0;

/** A client address no other context of this run uses. */
export function clientAddress(): string {
  counter += 1;
  const worker = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
  const salt = Math.floor(Math.random() * 200);
  return `10.${worker + 1}.${salt}.${counter % 250}`;
}

export function contextOptions(options: BrowserContextOptions = {}): BrowserContextOptions {
  return {
    ...options,
    extraHTTPHeaders: { ...options.extraHTTPHeaders, "x-forwarded-for": clientAddress() },
  };
}

/** A second, independent browser session (another person). Close it when done. */
export async function newSession(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(contextOptions(options));
  const page = await context.newPage();
  return { context, page };
}

export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use(contextOptions({ extraHTTPHeaders }).extraHTTPHeaders);
  },
});

export { expect } from "@playwright/test";
