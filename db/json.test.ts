import { describe, expect, it } from "vitest";
import { fromJson } from "./json";

describe("fromJson", () => {
  it("parses a json column a driver handed back as text, and keeps a parsed one", () => {
    expect(fromJson<number[] | string>("[1,2]")).toEqual([1, 2]);
    const parsed = [{ id: "a" }];
    expect(fromJson(parsed)).toBe(parsed);
    expect(fromJson<string[] | null>(null)).toBeNull();
  });
});
