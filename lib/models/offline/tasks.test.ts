import { describe, expect, it } from "vitest";
import { composeTask, salientWords } from "./tasks";

const transcript = (member: string, agent = "Here is a plan with several steps.") =>
  `Member: ${member}\nAgent: ${agent}`;

describe("offline background tasks", () => {
  it("T21 a title is made of the member's most salient words, without triggers", () => {
    const title = composeTask(
      "title",
      transcript("[slow] Budget the lighthouse restoration; the lighthouse roof first [words:40]"),
    );
    expect(title).toContain("Lighthouse");
    expect(title).not.toMatch(/\[|slow|words/);
    expect(title.split(" ").length).toBeLessThanOrEqual(6);
  });

  it("T21 different conversations give different titles", () => {
    const a = composeTask("title", transcript("Schedule volleyball tournaments for the league"));
    const b = composeTask("title", transcript("Compare sourdough fermentation timings"));
    expect(a).not.toBe(b);
    expect(a.toLowerCase()).toContain("volleyball");
    expect(b.toLowerCase()).toContain("sourdough");
  });

  it("T23 an activity line says what happened, names the tools used, and never quotes the member", () => {
    const member = "Compare granite and limestone quotes for the plaza";
    const line = composeTask(
      "activity",
      `Member: ${member}\nTools used: current_time, word_count\nAgent: Granite wins.`,
    );
    expect(line).toMatch(/^Compared /);
    expect(line).toContain("granite");
    expect(line).toContain("current_time and word_count");
    expect(line).not.toContain(member);
  });

  it("ranks words by how often they occur, then keeps their order", () => {
    expect(salientWords("ferry timetable ferry harbor ferry timetable dock", 2)).toEqual([
      "ferry",
      "timetable",
    ]);
  });
});
