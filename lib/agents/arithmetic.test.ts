import { describe, expect, it } from "vitest";
import { evaluateArithmetic } from "./arithmetic";

describe("evaluateArithmetic (the calculate tool)", () => {
  it("follows precedence, parentheses, unary minus and right-associative powers", () => {
    expect(evaluateArithmetic("1 + 2 * 3")).toBe(7);
    expect(evaluateArithmetic("(1 + 2) * 3")).toBe(9);
    expect(evaluateArithmetic("-2 ^ 2")).toBe(-4);
    expect(evaluateArithmetic("2 ^ 3 ^ 2")).toBe(512);
    expect(evaluateArithmetic("(1200 * 0.15) / 4")).toBe(45);
    expect(evaluateArithmetic("10 % 4 - .5")).toBe(1.5);
    expect(evaluateArithmetic("1e3 + 1")).toBe(1001);
  });

  it("refuses what is not arithmetic, instead of evaluating it", () => {
    for (const bad of ["", "2 +", "(1 + 2", "1 / 0", "process.exit()", "2 2", "1 + )"]) {
      expect(() => evaluateArithmetic(bad)).toThrow();
    }
  });
});
