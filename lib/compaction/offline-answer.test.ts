import { describe, expect, it } from "vitest";
import { answerCompactionOffline, composeCompaction } from "./offline-answer";

/** A long stretch of conversation: the member's lines from `topics`, the agent's generic ones. */
function transcript(lines: string[], previous?: string): string {
  return [
    "Summary limit: 1200",
    ...(previous ? [`Previous summary: ${previous}`] : []),
    ...lines.flatMap((line, index) => [
      `Member: ${line}`,
      `Agent: Here is a detailed answer about point ${index + 1}, with several options to weigh and a recommendation at the end of it.`,
    ]),
  ].join("\n");
}

const HARBOR = [
  "The lighthouse restoration needs a budget for the lantern room and the gallery railings.",
  "We decided to use copper flashing on the lantern room because it outlasts zinc.",
  "The harbor trust meets on Thursday to review the lighthouse masonry survey.",
  "Get three quotes for the lighthouse masonry and the lantern glazing.",
  "The gallery railings are corroded; there is a risk the inspector closes the gallery.",
  "We need to book scaffolding for the lighthouse tower before the storm season.",
  "The lantern glazing supplier is in Falmouth and needs drawings of the lantern room.",
  "Ask the harbor trust whether the lighthouse keeper's cottage is part of the budget.",
];
const LEAGUE = [
  "Schedule the volleyball tournaments for the youth league across four weekends.",
  "We agreed to seed the tournaments by last season's league standings.",
  "The referees for the volleyball league need certificates renewed before the tournaments.",
  "Book the sports hall courts for the youth league finals in March.",
  "Parents want the volleyball tournaments to start later on Sundays.",
  "We still need to order trophies and medals for the youth league.",
  "Not sure whether the under-twelve volleyball teams play on the short courts.",
  "Send the league fixtures to every volleyball coach by Friday.",
];
const HARBOR_WORDS = ["lighthouse", "lantern", "harbor", "masonry", "gallery"];
const LEAGUE_WORDS = ["volleyball", "tournaments", "league", "referees", "trophies"];

describe("the compaction's offline answer", () => {
  it("summarizes two long ranges each with its own topics and decisions only, much shorter", () => {
    const cases = [
      { lines: HARBOR, own: HARBOR_WORDS, other: LEAGUE_WORDS },
      { lines: LEAGUE, own: LEAGUE_WORDS, other: HARBOR_WORDS },
    ];
    for (const { lines, own, other } of cases) {
      const input = transcript(lines);
      const { summary } = composeCompaction(input);
      const lower = summary.toLowerCase();
      expect(own.filter((word) => lower.includes(word)).length, summary).toBeGreaterThanOrEqual(3);
      expect(
        other.filter((word) => lower.includes(word)),
        summary,
      ).toEqual([]);
      expect(summary.length).toBeLessThan(input.length / 3);
      expect(summary).toMatch(/^Topics: /u);
    }
    const harbor = composeCompaction(transcript(HARBOR));
    expect(harbor.summary).toContain("Decisions: ");
    expect(harbor.decisions).toEqual([
      {
        text: "We decided to use copper flashing on the lantern room",
        rationale: "it outlasts zinc",
      },
    ]);
    expect(harbor.tasks).toContain(
      "We need to book scaffolding for the lighthouse tower before the storm season",
    );
    expect(harbor.risks.join(" ")).toContain("inspector closes the gallery");
    const league = composeCompaction(transcript(LEAGUE));
    expect(league.decisions.map((decision) => decision.text)).toEqual([
      "We agreed to seed the tournaments by last season's league standings",
    ]);
    expect(league.openQuestions.join(" ")).toContain("under-twelve");
  });

  it("a second summary folds in the first, so there is only ever one", () => {
    const first = composeCompaction(transcript(HARBOR)).summary;
    const second = composeCompaction(transcript(LEAGUE, first)).summary.toLowerCase();
    expect(second).toContain("volleyball");
    expect(second).toContain("lighthouse");
    expect(second).toContain("copper flashing");
    expect(second).toContain("seed the tournaments");
  });

  it("stays within the limit it is given, answered as JSON", () => {
    const input = transcript([...HARBOR, ...LEAGUE]).replace(
      "Summary limit: 1200",
      "Summary limit: 400",
    );
    const { summary } = composeCompaction(input);
    expect(summary.length).toBeLessThanOrEqual(400);
    expect(JSON.parse(answerCompactionOffline({ prompt: input }))).toMatchObject({ summary });
  });
});
