// Part of the dev server's readiness check: once /sign-in answers, request every page and route
// the test visits so next dev compiles them (and their client chunks) before the test's clock
// starts. Signed out, each answers a redirect or a 401, which compiles it all the same.
import type { FullConfig } from "@playwright/test";

const WARM = [
  "/sign-in",
  "/",
  "/w/ws_warm",
  "/api/auth/get-session",
  "/api/workstreams",
  "/api/workstreams/ws_warm/messages",
  "/api/workstreams/ws_warm/events",
  "/api/workstreams/ws_warm/context",
  "/api/live",
];

export default async function warmUp(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error("playwright.dev.config.ts sets no baseURL to warm up");
  for (const path of WARM) {
    const response = await fetch(new URL(path, baseURL), { redirect: "manual" });
    await response.body?.cancel();
    if (response.status >= 500) throw new Error(`next dev answered ${response.status} for ${path}`);
  }
}
