import { describe, expect, it } from "vitest";
import { offlineActivity, offlineTitle } from "./offline-answers";

const transcript = (member: string, agent = "Here is a plan with several steps.") =>
  `Member: ${member}\nAgent: ${agent}`;

describe("the workstreams' offline answers", () => {
  it("a title is made of the member's most salient words", () => {
    const title = offlineTitle({
      prompt: transcript("Budget the lighthouse restoration; the lighthouse roof first"),
    });
    expect(title).toContain("Lighthouse");
    expect(title.split(" ").length).toBeLessThanOrEqual(6);
  });

  it("different conversations give different titles", () => {
    const a = offlineTitle({
      prompt: transcript("Schedule volleyball tournaments for the league"),
    });
    const b = offlineTitle({ prompt: transcript("Compare sourdough fermentation timings") });
    expect(a).not.toBe(b);
    expect(a.toLowerCase()).toContain("volleyball");
    expect(b.toLowerCase()).toContain("sourdough");
  });

  it("an activity line says what happened, names the tools used, and never quotes the member", () => {
    const member = "Compare granite and limestone quotes for the plaza";
    const line = offlineActivity({
      prompt: `Member: ${member}\nTools used: current_time, word_count\nAgent: Granite wins.`,
    });
    expect(line).toMatch(/^Compared /);
    expect(line).toContain("granite");
    expect(line).toContain("current_time and word_count");
    expect(line).not.toContain(member);
  });
});
