import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { budgetTokens } from "@/lib/context/window";
import { skillsSection } from "./tools";

describe("skillsSection", () => {
  it("I14.6 names the offered skills with when to use each, within its budget, whole skills at a time", () => {
    const skills = Array.from({ length: 40 }, (_, index) => ({
      name: `Procedure ${index} for the quarterly harbor inspection`,
      whenToUse:
        "When the harbor master asks for the quarterly inspection report and its evidence.",
    }));
    const section = skillsSection(skills) ?? "";
    expect(section.startsWith("<skills>\n")).toBe(true);
    expect(section.endsWith("\n</skills>")).toBe(true);
    expect(budgetTokens(section)).toBeLessThanOrEqual(config.skills.sectionBudget);
    const lines = section.split("\n").filter((line) => line.startsWith("- "));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(40);
    expect(lines[0]).toBe(`- ${skills[0]?.name}: ${skills[0]?.whenToUse}`);
  });

  it("I14.6 offers nothing without skills", () => {
    expect(skillsSection([])).toBeNull();
  });
});
