import { describe, expect, it } from "vitest";
import { formatCost } from "./cost";

describe("formatCost", () => {
  it("UI16 writes cents, sub-cent amounts to two significant digits, and whole dollars from $100", () => {
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.0031)).toBe("$0.0031");
    expect(formatCost(0.004567)).toBe("$0.0046");
    expect(formatCost(0.00001)).toBe("<$0.0001");
    expect(formatCost(1.5)).toBe("$1.50");
    expect(formatCost(99.994)).toBe("$99.99");
    expect(formatCost(1234.5)).toBe("$1,235");
  });
});
