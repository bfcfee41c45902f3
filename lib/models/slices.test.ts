import { describe, expect, it } from "vitest";
import { readSlices, writeSlices } from "./slices";

describe("slices transcript", () => {
  it("I14.6 numbers each slice's messages and reads them back with their lines", () => {
    const transcript = writeSlices([
      { member: "Steps:\n1. One\n2. Two", agent: "Done." },
      { member: "I sail on Sundays.", agent: "" },
    ]);
    expect(transcript).toBe(
      "Message 1 (member): Steps:\n  1. One\n  2. Two\nMessage 1 (agent): Done.\nMessage 2 (member): I sail on Sundays.",
    );
    expect(readSlices(transcript)).toEqual([
      { message: 1, role: "member", text: "Steps:\n1. One\n2. Two" },
      { message: 1, role: "agent", text: "Done." },
      { message: 2, role: "member", text: "I sail on Sundays." },
    ]);
  });
});
