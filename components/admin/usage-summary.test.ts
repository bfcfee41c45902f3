import { describe, expect, it } from "vitest";
import type { UsageRow } from "@/lib/admin/usage";
import { perDay, perMember, usageCsv } from "./usage-summary";

const row = (overrides: Partial<UsageRow>): UsageRow => ({
  day: "2026-11-20",
  userId: "u1",
  member: "Ada",
  turns: 1,
  unknownTurns: 0,
  inputTokens: 100,
  outputTokens: 10,
  costUsd: 0.5,
  ...overrides,
});

describe("usage summary", () => {
  it("sums members over days and keeps a cost nobody knows unknown, not zero", () => {
    const members = perMember([
      row({}),
      row({ day: "2026-11-21", turns: 2, costUsd: 0.25 }),
      row({
        userId: "u2",
        member: "Bo",
        unknownTurns: 1,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: null,
      }),
    ]);
    expect(members).toEqual([
      expect.objectContaining({ label: "Ada", turns: 3, inputTokens: 200, costUsd: 0.75 }),
      expect.objectContaining({ label: "Bo", unknownTurns: 1, costUsd: null }),
    ]);
  });

  it("lists every day of the period, oldest first", () => {
    const days = perDay([row({ day: "2026-11-25" })], 3, new Date("2026-11-26T12:00:00Z"));
    expect(days.map((day) => [day.key, day.turns])).toEqual([
      ["2026-11-24", 0],
      ["2026-11-25", 1],
      ["2026-11-26", 0],
    ]);
  });

  it("writes the CSV with quoted names and unknown costs as 'unknown'", () => {
    const csv = usageCsv([row({ member: 'Ada "the first", PhD', costUsd: null, unknownTurns: 1 })]);
    expect(csv).toBe(
      "day,member,turns,turns_with_unknown_usage,input_tokens,output_tokens,cost_usd\n" +
        '2026-11-20,"Ada ""the first"", PhD",1,1,100,10,unknown\n',
    );
  });
});
