import { describe, expect, it } from "vitest";
import { formatCost } from "@/lib/format/cost";
import { formatDuration } from "@/lib/format/duration";
import { metaDetails } from "./format";

describe("metaDetails", () => {
  it("lists tokens, cost, duration and model in that order", () => {
    expect(
      metaDetails({
        inputTokens: 1204,
        outputTokens: 312,
        reasoningTokens: 40,
        costUsd: 0.0031,
        startedAt: "2026-01-01T10:00:00.000Z",
        finishedAt: "2026-01-01T10:00:02.400Z",
        model: "gpt-4.1",
      }),
    ).toEqual(["1,204 in", "312 out", "40 reasoning", "$0.0031", "2.4 s", "gpt-4.1"]);
  });

  it("S11 shows unknown usage as a dash, never as free", () => {
    expect(
      metaDetails({ inputTokens: null, outputTokens: null, costUsd: null, model: "local" }),
    ).toEqual(["— in", "— out", "— cost", "local"]);
  });

  it("leaves out what it doesn't know", () => {
    expect(metaDetails(undefined)).toEqual([]);
    expect(metaDetails({ outputTokens: 5 })).toEqual(["5 out"]);
  });
});

describe("formatting", () => {
  it("formats costs and durations for reading", () => {
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(1.5)).toBe("$1.50");
    expect(formatDuration(350)).toBe("350 ms");
    expect(formatDuration(125_000)).toBe("2 min 5 s");
  });
});
