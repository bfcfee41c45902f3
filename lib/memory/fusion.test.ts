import { describe, expect, it } from "vitest";
import { fullTextQuery, fuseByRank } from "./retrieve";

const memory = (id: string, importance = 5) => ({ id, text: id, importance });

describe("reciprocal rank fusion", () => {
  it("I14.3 ranks a memory both lists found above memories only one list found", () => {
    const fused = fuseByRank([
      [memory("a"), memory("both")],
      [memory("both"), memory("b")],
    ]);
    expect(fused.map((m) => m.id)).toEqual(["both", "a", "b"]);
  });

  it("I14.3 breaks equal scores by importance", () => {
    const fused = fuseByRank([[memory("low", 2)], [memory("high", 9)]]);
    expect(fused.map((m) => m.id)).toEqual(["high", "low"]);
  });
});

describe("the full-text query of a message", () => {
  it("I14.3 any word may match; symbols and operators never reach to_tsquery", () => {
    expect(fullTextQuery("What's the budget for Q3?")).toBe("what | s | the | budget | for | q3");
    expect(fullTextQuery("!!! & | <-> :* '")).toBe("");
    expect(fullTextQuery("")).toBe("");
  });
});
