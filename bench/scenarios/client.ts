// 5. Client weight and long histories: all JavaScript Chromium fetches for the chat page (from
// navigation until 4 s after `load`, lazy chunks included), the route's first-load JS from the
// build's route-bundle-stats.json for comparison, and the time until the chat page is usable
// (composer enabled) for a workstream with few and with many messages, and the time from the
// page's POST to the answer's first character on screen.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { chromiumLaunchOptions } from "../lib/chromium";
import type { Client } from "../lib/http";
import { round, type Summary, summarize } from "../lib/stats";

export const CHAT_ROUTE = /^\/w\/\[[^\]]+\]$/;

export type BundleWeight = {
  route: string;
  chunks: number;
  rawBytes: number;
  gzipBytes: number;
  /** As Next reports it (uncompressed). */
  reportedRawBytes?: number;
};

type RouteStats = {
  route: string;
  firstLoadUncompressedJsBytes?: number;
  firstLoadChunkPaths?: string[];
};

export function chatRouteWeight(appDir: string): BundleWeight | null {
  const file = path.join(appDir, ".next", "diagnostics", "route-bundle-stats.json");
  if (!existsSync(file)) return null;
  const stats = JSON.parse(readFileSync(file, "utf8")) as RouteStats[];
  const entry = stats.find((item) => CHAT_ROUTE.test(item.route));
  if (!entry) return null;
  let rawBytes = 0;
  let gzipBytes = 0;
  const chunks = entry.firstLoadChunkPaths ?? [];
  for (const chunk of chunks) {
    const data = readFileSync(path.join(appDir, chunk));
    rawBytes += data.length;
    gzipBytes += gzipSync(data, { level: 9 }).length;
  }
  return {
    route: entry.route,
    chunks: chunks.length,
    rawBytes,
    gzipBytes,
    ...(entry.firstLoadUncompressedJsBytes === undefined
      ? {}
      : { reportedRawBytes: entry.firstLoadUncompressedJsBytes }),
  };
}

/** What the browser fetched: every script response, gzip-compressed here at level 9. */
export type FetchedWeight = {
  scripts: number;
  rawBytes: number;
  gzipBytes: number;
  /** Settle time after `load` that was included, in ms. */
  afterLoadMs: number;
  /** The largest scripts, gzip bytes, for finding what to cut. */
  largest: Array<{ path: string; gzipBytes: number }>;
};

export const AFTER_LOAD_MS = 4_000;

async function launchChromium() {
  // Loaded on first use: most benchmark runs open no browser.
  const { chromium } = await import("@playwright/test");
  return chromium.launch(chromiumLaunchOptions);
}

/**
 * All JavaScript a fresh browser (empty cache) fetches for `/w/<id>`: from navigation until
 * AFTER_LOAD_MS after the `load` event, so chunks loaded lazily after hydration count too. Each
 * script is gzip-compressed here (level 9) so the figure does not depend on the server's
 * compression settings.
 */
export async function chatPageScripts(input: {
  baseUrl: string;
  client: Client;
  workstreamId: string;
}): Promise<FetchedWeight> {
  const browser = await launchChromium();
  try {
    const context = await signedInContext(browser, input);
    const page = await context.newPage();
    const bodies: Array<Promise<{ path: string; body: Buffer } | null>> = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      const path = new URL(response.url()).pathname;
      bodies.push(
        response.body().then(
          (body) => ({ path, body }),
          () => null,
        ),
      );
    });
    await page.goto(`${input.baseUrl}/w/${encodeURIComponent(input.workstreamId)}`, {
      waitUntil: "load",
      timeout: 60_000,
    });
    await page.waitForTimeout(AFTER_LOAD_MS);
    const scripts = (await Promise.all(bodies)).filter((item) => item !== null);
    await context.close();
    const sized = scripts.map(({ path, body }) => ({
      path,
      rawBytes: body.length,
      gzipBytes: gzipSync(body, { level: 9 }).length,
    }));
    return {
      scripts: sized.length,
      rawBytes: sized.reduce((sum, item) => sum + item.rawBytes, 0),
      gzipBytes: sized.reduce((sum, item) => sum + item.gzipBytes, 0),
      afterLoadMs: AFTER_LOAD_MS,
      largest: sized
        .sort((a, b) => b.gzipBytes - a.gzipBytes)
        .slice(0, 8)
        .map(({ path, gzipBytes }) => ({ path, gzipBytes })),
    };
  } finally {
    await browser.close();
  }
}

export type UsableResult = { messages: number; ms: Summary; errors: number; firstError?: string };

/** ms from navigation start until an enabled composer is on the page. */
export async function timeToUsable(input: {
  baseUrl: string;
  client: Client;
  workstreamId: string;
  messages: number;
  repeats: number;
  selector: string;
}): Promise<UsableResult> {
  const browser = await launchChromium();
  const samples: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  try {
    // One unmeasured load to warm the server's route and data paths.
    for (let i = 0; i <= input.repeats; i++) {
      const context = await signedInContext(browser, input);
      try {
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(`${input.baseUrl}/w/${encodeURIComponent(input.workstreamId)}`, {
          waitUntil: "commit",
          timeout: 60_000,
        });
        await page.waitForFunction(
          (selector: string) => {
            // Scripts loaded and run (hydration), and an enabled, visible composer.
            if (document.readyState !== "complete") return false;
            for (const element of document.querySelectorAll(selector)) {
              const el = element as HTMLElement & { disabled?: boolean };
              const visible = el.offsetWidth > 0 || el.offsetHeight > 0;
              if (visible && !el.disabled && el.getAttribute("aria-disabled") !== "true") {
                return true;
              }
            }
            return false;
          },
          input.selector,
          { timeout: 60_000, polling: "raf" },
        );
        const ms = performance.now() - started;
        if (i > 0) samples.push(ms);
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message.split("\n")[0] : String(error);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return {
    messages: input.messages,
    ms: summarize(samples),
    errors,
    ...(firstError ? { firstError } : {}),
  };
}

export type FirstCharacterResult = { ms: Summary; errors: number; firstError?: string };

/**
 * ms from the page's POST of a message (`…/messages`, as the page's own fetch starts it) until
 * the first character of the answer is on screen: the new assistant message's body (below its
 * name) holds text. Measured in the page with performance.now(); one unmeasured turn first.
 */
export async function timeToFirstCharacter(input: {
  baseUrl: string;
  client: Client;
  workstreamId: string;
  texts: readonly string[];
  selector: string;
}): Promise<FirstCharacterResult> {
  const browser = await launchChromium();
  const samples: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  try {
    const context = await signedInContext(browser, input);
    // The page's POST start, seen by wrapping its fetch before any of its scripts run.
    await context.addInitScript(() => {
      const w = window as unknown as { __benchPostAt?: number };
      const original = window.fetch.bind(window);
      window.fetch = (resource, init) => {
        const url =
          typeof resource === "string" ? resource : String((resource as Request).url ?? resource);
        if (init?.method === "POST" && /\/messages(\?|$)/.test(url))
          w.__benchPostAt ??= performance.now();
        return original(resource, init);
      };
    });
    const page = await context.newPage();
    await page.goto(`${input.baseUrl}/w/${encodeURIComponent(input.workstreamId)}`, {
      waitUntil: "load",
      timeout: 60_000,
    });
    for (const [i, text] of input.texts.entries()) {
      try {
        const composer = page.locator(input.selector).first();
        await composer.waitFor({ state: "visible", timeout: 60_000 });
        const before = await page.locator('article[data-role="assistant"]').count();
        await page.evaluate(() => {
          (window as unknown as { __benchPostAt?: number }).__benchPostAt = undefined;
        });
        await composer.fill(text);
        await composer.press("Enter");
        const handle = await page.waitForFunction(
          (known: number) => {
            const w = window as unknown as { __benchPostAt?: number };
            const articles = document.querySelectorAll('article[data-role="assistant"]');
            if (w.__benchPostAt === undefined || articles.length <= known) return false;
            const body = articles[articles.length - 1]?.querySelector(":scope > div");
            if (!body?.textContent?.trim()) return false;
            return performance.now() - w.__benchPostAt;
          },
          before,
          { timeout: 60_000, polling: "raf" },
        );
        const ms = (await handle.jsonValue()) as number;
        if (i > 0) samples.push(ms);
        // The turn ends (the answer gets its footer) before the next one starts.
        await page.waitForFunction(
          () => {
            const articles = document.querySelectorAll('article[data-role="assistant"]');
            return articles[articles.length - 1]?.querySelector("footer") != null;
          },
          undefined,
          { timeout: 60_000 },
        );
        await page.waitForTimeout(500);
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message.split("\n")[0] : String(error);
      }
    }
    await context.close();
  } finally {
    await browser.close();
  }
  return { ms: summarize(samples), errors, ...(firstError ? { firstError } : {}) };
}

export function ratio(a: number, b: number): number {
  return round(a / b, 2);
}

/** A browser context signed in as the bench user, reaching nothing but this server. */
async function signedInContext(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  input: { baseUrl: string; client: Client },
) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(
    (url) => url.hostname !== "127.0.0.1",
    (route) => route.abort(),
  );
  await context.addCookies(
    input.client.cookieList().map((cookie) => ({ ...cookie, url: input.baseUrl })),
  );
  return context;
}
