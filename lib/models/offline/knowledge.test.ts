import { describe, expect, it } from "vitest";
import { knowledgeLine, memoriesIn, relevantMemories } from "./knowledge";

const SYSTEM = [
  "You are Chief.",
  "<pre-seeded-memories>\n- The Zephyr budget is 40k &lt;EUR&gt;\n- Ada prefers email\n</pre-seeded-memories>",
  "<retrieved-knowledge>\n- The Lisbon office closes at 6 pm\n</retrieved-knowledge>",
].join("\n\n");

describe("the offline model's memories", () => {
  it("I14.4 reads the memories of both memory sections of its instructions", () => {
    expect(memoriesIn(SYSTEM)).toEqual([
      "The Zephyr budget is 40k <EUR>",
      "Ada prefers email",
      "The Lisbon office closes at 6 pm",
    ]);
    expect(memoriesIn("You are Chief.")).toEqual([]);
  });

  it("I14.4 mentions only the memories that share a word with the message", () => {
    expect(relevantMemories(SYSTEM, "What is the Zephyr budget?")).toEqual([
      "The Zephyr budget is 40k <EUR>",
    ]);
    expect(knowledgeLine(SYSTEM, "When does the Lisbon office close?")).toBe(
      "From what I remember: “The Lisbon office closes at 6 pm”.",
    );
    expect(knowledgeLine(SYSTEM, "Tell me a joke")).toBe("");
  });
});
