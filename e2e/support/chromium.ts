// The browser every Playwright run uses; both configs take their project from here. Its launch
// options are the benchmark's too (bench/lib/chromium.ts).
import { devices, type Project } from "@playwright/test";
import { chromiumLaunchOptions } from "../../bench/lib/chromium";

export function chromiumProject(name: string): Project {
  return {
    name,
    use: { ...devices["Desktop Chrome"], launchOptions: chromiumLaunchOptions },
  };
}
