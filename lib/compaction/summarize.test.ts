import { describe, expect, it } from "vitest";
import { emptyState } from "@/lib/state/schema";
import { compactionTranscript, findingsToDelta, summaryText } from "./summarize";

const message = (role: string, text: string) => ({ role, parts: [{ type: "text", text }] });

describe("what a compaction sends the model and keeps of its answer", () => {
  it("I15.5 the transcript leads with the limit and the previous summary, one labelled line a message", () => {
    const transcript = compactionTranscript({
      previousSummary: "Topics: harbor.",
      messages: [
        message("user", "Book the lighthouse\nsurvey."),
        {
          role: "assistant",
          parts: [
            { type: "tool-calculate", input: {} },
            { type: "text", text: "Booked." },
          ],
        },
      ],
      limit: 800,
      maxTokens: 10_000,
    });
    expect(transcript.split("\n")).toEqual([
      "Summary limit: 800",
      "Previous summary: Topics: harbor.",
      "Member: Book the lighthouse survey.",
      "Tools used: calculate",
      "Agent: Booked.",
    ]);
  });

  it("I15.5 a range too long for the summarizer's window is cut: long messages first, then the oldest lines", () => {
    const long = Array.from({ length: 40 }, (_, i) =>
      message("user", `${i} ${"ledger ".repeat(800)}`),
    );
    const cut = compactionTranscript({
      previousSummary: "Earlier.",
      messages: long,
      limit: 800,
      maxTokens: 20_000,
    });
    expect(cut.split("\n").slice(0, 2)).toEqual([
      "Summary limit: 800",
      "Previous summary: Earlier.",
    ]);
    expect(cut.split("\n")).toHaveLength(42);
    expect(cut).toContain("…");
    const dropped = compactionTranscript({
      previousSummary: "Earlier.",
      messages: long,
      limit: 800,
      maxTokens: 800,
    });
    const lines = dropped.split("\n");
    expect(lines.slice(0, 2)).toEqual(["Summary limit: 800", "Previous summary: Earlier."]);
    expect(lines.length).toBeLessThan(42);
    expect(lines.at(-1)).toMatch(/^Member: 39 /u);
  });

  it("I15.1 W9 findings become additions the state does not hold yet, within limits", () => {
    const state = emptyState();
    state.keyDecisions.push({
      id: "dec_1",
      text: "Use copper flashing",
      rationale: "",
      confidence: 0.9,
      addedAt: "2026-11-01T00:00:00.000Z",
    });
    const delta = findingsToDelta(
      {
        summary: "…",
        decisions: [
          { text: "use copper  flashing", rationale: "again" },
          { text: "Hire the Pemberton crew", rationale: "they did the pier" },
          { text: "Hire the Pemberton crew", rationale: "twice" },
        ],
        tasks: ["Book scaffolding", "", "Order glazing", "Call the trust", "Survey", "One more"],
        openQuestions: [],
        risks: ["Storm season"],
      },
      state,
    );
    expect(delta).toEqual({
      keyDecisions: {
        add: [{ text: "Hire the Pemberton crew", rationale: "they did the pier", confidence: 0.6 }],
      },
      tasks: {
        add: ["Book scaffolding", "Order glazing", "Call the trust", "Survey"].map((text) => ({
          text,
          status: "open",
        })),
      },
      risks: { add: [{ text: "Storm season" }] },
    });
  });

  it("I15.5 a summary is one storable paragraph within its limit, cut at a word", () => {
    expect(summaryText("  Topics:\n harbor \u0000 lighthouse.  ", 100)).toBe(
      "Topics: harbor \ufffd lighthouse.",
    );
    const cut = summaryText("word ".repeat(100), 50);
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(cut.endsWith("word…")).toBe(true);
  });
});
