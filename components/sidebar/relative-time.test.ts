import { describe, expect, it } from "vitest";
import { formatRelativeTime } from "./relative-time";

describe("formatRelativeTime", () => {
  const now = new Date(2026, 2, 10, 15, 0, 0);
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  it("shows minutes and hours today, then yesterday, weekdays and dates", () => {
    expect(formatRelativeTime(ago(10_000), now)).toBe("now");
    expect(formatRelativeTime(ago(5 * 60_000), now)).toBe("5m");
    expect(formatRelativeTime(ago(3 * 3_600_000), now)).toBe("3h");
    expect(formatRelativeTime(new Date(2026, 2, 9, 20).toISOString(), now)).toBe("Yesterday");
    expect(formatRelativeTime(new Date(2026, 2, 6, 12).toISOString(), now)).toBe("Fri");
    expect(formatRelativeTime(new Date(2026, 0, 3).toISOString(), now)).toBe("Jan 3");
    expect(formatRelativeTime(new Date(2025, 0, 3).toISOString(), now)).toBe("Jan 3, 2025");
  });
});
