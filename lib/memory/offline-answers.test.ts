import { describe, expect, it } from "vitest";
import { offlineMemorySummary, rememberedAside } from "./offline-answers";

const summarize = (prompt: string) => offlineMemorySummary({ prompt });

/** Three 15-note blocks on different subjects, each note labelled with the role that wrote it. */
const BLOCKS = [
  {
    salient: ["lighthouse", "harbor", "lantern", "granite", "keeper", "foghorn"],
    notes: [
      ["member", "The lighthouse restoration budget is capped at 40k"],
      ["chief", "Harbor trust approved the lantern replacement"],
      ["researcher", "Granite blocks for the lighthouse base come from Cornwall"],
      ["member", "The keeper cottage stays closed until spring"],
      ["chief", "Foghorn repairs wait for the harbor survey"],
      ["researcher", "Lantern lens supplier quoted twelve weeks"],
      ["member", "Decided to repaint the lighthouse tower white"],
      ["chief", "Harbor permit renewal is due in March"],
      ["researcher", "Keeper logbooks from 1890 were digitized"],
      ["member", "Granite steps need new mortar before opening"],
      ["chief", "Lantern room glazing uses laminated panes"],
      ["researcher", "Foghorn compressor parts are still available"],
      ["member", "Lighthouse open day moved to June"],
      ["chief", "Harbor volunteers will paint the railings"],
      ["researcher", "Lantern rotation motor draws two amps"],
    ],
  },
  {
    salient: ["volleyball", "tournament", "referees", "league", "jerseys", "bracket"],
    notes: [
      ["member", "The volleyball tournament runs over two weekends"],
      ["coach", "League referees need certification by May"],
      ["scheduler", "Bracket draw happens on Friday evening"],
      ["member", "Jerseys arrive in navy with white numbers"],
      ["coach", "Volleyball nets at the gym are worn"],
      ["scheduler", "Tournament finals booked at the civic arena"],
      ["member", "League fees stay at fifty per player"],
      ["coach", "Referees get travel stipends this season"],
      ["scheduler", "Bracket seeding follows last season standings"],
      ["member", "Jerseys sponsor is the bakery downtown"],
      ["coach", "Volleyball drills focus on serving"],
      ["scheduler", "Tournament shuttle buses leave at eight"],
      ["member", "League awards dinner in November"],
      ["coach", "Referees meeting set for Tuesday"],
      ["scheduler", "Bracket posted online after the draw"],
    ],
  },
  {
    salient: ["sourdough", "fermentation", "starter", "oven", "rye", "hydration"],
    notes: [
      ["member", "Sourdough loaves proof overnight in the fridge"],
      ["baker", "Fermentation slows below eighteen degrees"],
      ["chemist", "Starter acidity measured at pH four"],
      ["member", "The deck oven preheats for an hour"],
      ["baker", "Rye flour comes from the mill in Ulm"],
      ["chemist", "Hydration of seventy percent keeps the crumb open"],
      ["member", "Sourdough orders close on Thursday"],
      ["baker", "Fermentation baskets need washing weekly"],
      ["chemist", "Starter feeding ratio is one to five"],
      ["member", "Oven steam injection fixed last week"],
      ["baker", "Rye loaves sell out by noon"],
      ["chemist", "Hydration tests continue with spelt"],
      ["member", "Sourdough class scheduled for Saturday"],
      ["baker", "Fermentation room thermostat replaced"],
      ["chemist", "Starter backup stored in the freezer"],
    ],
  },
];

const noteLine = ([role, text]: string[]) => `Note (${role}): ${text}`;
const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

describe("the memory block's offline summary", () => {
  it("three different blocks: each summary names every role and a key phrase of every note folded, only its own words, and is shorter", () => {
    BLOCKS.forEach((block, index) => {
      const folded = block.notes.slice(0, 10);
      const summary = summarize(folded.map(noteLine).join("\n"));
      const own = new Set([...folded.flat()].flatMap(wordsOf));
      // Every word of the summary comes from its own notes (their roles and texts).
      expect(
        wordsOf(summary).filter((word) => !own.has(word)),
        summary,
      ).toEqual([]);
      for (const [role, text] of folded) {
        expect(summary).toContain(`${role}:`);
        // The note's key phrase: at least one of its content words is there.
        const content = wordsOf(text ?? "").filter((word) => word.length > 4);
        expect(
          content.some((word) => wordsOf(summary).includes(word)),
          `${text} in ${summary}`,
        ).toBe(true);
      }
      const others = BLOCKS.filter((_, other) => other !== index).flatMap((b) => b.salient);
      expect(others.filter((word) => wordsOf(summary).includes(word))).toEqual([]);
      expect(summary.length).toBeLessThan(folded.map(([, text]) => text ?? "").join(" ").length);
    });
  });

  it("a rollup folds the previous summary and the next notes into one, keeping both", () => {
    const block = BLOCKS[0]?.notes ?? [];
    const first = summarize(block.slice(0, 10).map(noteLine).join("\n"));
    const next = block.slice(10).concat(BLOCKS[0]?.notes.slice(0, 5) ?? []);
    const rollup = summarize([`Previous summary: ${first}`, ...next.map(noteLine)].join("\n"));
    expect(rollup.length).toBeLessThanOrEqual(500);
    // The previous summary's phrases survive (at least one word each), and the new notes' too.
    for (const phrase of first.split(/[;,]/u).map((part) => part.split(":").at(-1)?.trim() ?? "")) {
      expect(
        phrase.split(" ").some((word) => rollup.includes(word)),
        phrase,
      ).toBe(true);
    }
    expect(rollup).toContain("rotation");
    expect(rollup.match(/chief:/gu)).toHaveLength(1);
  });
});

const SYSTEM = [
  "You are Chief.",
  "<pre-seeded-memories>\n- The Zephyr budget is 40k &lt;EUR&gt;\n- Ada prefers email\n</pre-seeded-memories>",
  "<retrieved-knowledge>\n- The Lisbon office closes at 6 pm\n</retrieved-knowledge>",
].join("\n\n");

describe("the offline answer's memories", () => {
  it("opens with the memories of either memory section that share a word with the message", () => {
    const aside = (text: string) => rememberedAside({ system: SYSTEM, text });
    expect(aside("What is the Zephyr budget?")).toBe(
      "From what I remember: “The Zephyr budget is 40k <EUR>”.",
    );
    expect(aside("When does the Lisbon office close?")).toBe(
      "From what I remember: “The Lisbon office closes at 6 pm”.",
    );
    expect(aside("Tell me a joke")).toBeUndefined();
    expect(rememberedAside({ system: "You are Chief.", text: "Zephyr budget?" })).toBeUndefined();
  });
});
