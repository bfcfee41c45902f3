import { describe, expect, it } from "vitest";
import { statedFacts } from "./facts";

describe("statedFacts", () => {
  it("I14.6 keeps the member's statements about themselves and standing preferences, not questions or requests", () => {
    const text =
      "Hi there! I prefer oolong tea for morning meetings. Can you draft the agenda? My team is in " +
      "Lisbon. Draft it now. I want you to be brief. Always use metric units. What do we need?";
    expect(statedFacts(text, 16)).toEqual([
      { text: "I prefer oolong tea for morning meetings.", importance: 6 },
      { text: "My team is in Lisbon.", importance: 5 },
      { text: "Always use metric units.", importance: 6 },
    ]);
  });

  it("I14.6 gives each sentence once and at most the limit", () => {
    const text = Array.from({ length: 20 }, (_, i) => `I own boat number ${i}.`).join(" ");
    expect(statedFacts(text, 16)).toHaveLength(16);
    expect(statedFacts("I sail. I sail on Sundays. I sail on Sundays.", 16)).toEqual([
      { text: "I sail on Sundays.", importance: 5 },
    ]);
  });
});
