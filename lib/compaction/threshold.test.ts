import { describe, expect, it } from "vitest";
import { compactedCount, compactionDue, historyBudget, summaryMaxChars } from "./threshold";

const turn = (n: number, tokens: number) => [
  { id: `u${n}`, role: "user", tokens },
  { id: `a${n}`, role: "assistant", tokens },
];

describe("when and what a workstream compacts", () => {
  it("I15.1 T20 is due past 70% of the window, counted as the builder counts", () => {
    const history = [...turn(1, 300), ...turn(2, 300)];
    // Stored 1,200 tokens are 1,336 with the 10% margin and 4 tokens a message.
    expect(historyBudget(history)).toBe(1336);
    expect(compactionDue({ historyTokens: historyBudget(history), window: 2000 })).toBe(false);
    expect(compactionDue({ historyTokens: historyBudget(history), window: 1900 })).toBe(true);
    // Messages the turn's read left out mean the history is past any window.
    expect(compactionDue({ historyTokens: 10, leftOut: 3, window: 200_000 })).toBe(true);
  });

  it("I15.1 T20 compacts the older turns and keeps the newest whole turns within 30%", () => {
    const history = [1, 2, 3, 4, 5].flatMap((n) => turn(n, 100));
    // 30% of 2,000 is 600: the last two turns (2 × 2 × 114 = 456) stay, a third would not fit.
    expect(compactedCount(history, 2000)).toBe(6);
    expect(history[6]?.role).toBe("user");
  });

  it("I15.1 T20 never splits a turn, and the last turn stays however long it is", () => {
    const history = [...turn(1, 100), ...turn(2, 100), { id: "u3", role: "user", tokens: 5000 }];
    expect(compactedCount(history, 2000)).toBe(4);
    expect(compactedCount(turn(1, 5000), 2000)).toBe(0);
    // Keeping starts mid-turn: it moves on to the next member's message.
    const uneven = [
      ...turn(1, 100),
      { id: "u2", role: "user", tokens: 540 },
      { id: "a2", role: "assistant", tokens: 10 },
      ...turn(3, 10),
    ];
    expect(compactedCount(uneven, 2000)).toBe(4);
  });

  it("I15.5 T20 a summary's length follows the window within bounds", () => {
    expect(summaryMaxChars(2000)).toBe(800);
    expect(summaryMaxChars(200_000)).toBe(4000);
    expect(summaryMaxChars(100)).toBe(400);
  });
});
