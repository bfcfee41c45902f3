import { describe, expect, it } from "vitest";
import { formatCost, formatTokens, formatWithoutUsage, kindOf } from "./format";

describe("admin console formatting", () => {
  it("shows token counts compactly", () => {
    expect([formatTokens(0), formatTokens(999), formatTokens(1_250), formatTokens(45_000)]).toEqual(
      ["0", "999", "1.3k", "45k"],
    );
    expect(formatTokens(2_345_678)).toBe("2.35M");
  });
  it("UI16 shows costs the way the chat does: cents, two significant digits below a cent", () => {
    expect([formatCost(0), formatCost(0.004), formatCost(1.5), formatCost(250)]).toEqual([
      "$0",
      "$0.004",
      "$1.50",
      "$250",
    ]);
  });
  it("S11 counts turns without usage in words", () => {
    expect([formatWithoutUsage(1), formatWithoutUsage(3)]).toEqual([
      "1 turn without usage",
      "3 turns without usage",
    ]);
  });
  it("W4 tells direct, group and core workstreams apart", () => {
    expect(kindOf({ mode: "direct", core: false })).toBe("direct");
    expect(kindOf({ mode: "group", core: true })).toBe("core");
    expect(kindOf({ mode: "group", core: false })).toBe("group");
  });
});
