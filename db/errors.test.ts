import { describe, expect, it } from "vitest";
import { isUniqueViolation } from "./errors";

describe("isUniqueViolation", () => {
  it("reads the driver's code, on the error or on the error Drizzle wraps it in", () => {
    expect(isUniqueViolation(Object.assign(new Error("dup"), { code: "23505" }))).toBe(true);
    const wrapped = new Error("Failed query", {
      cause: Object.assign(new Error("dup"), { code: "23505" }),
    });
    expect(isUniqueViolation(wrapped)).toBe(true);
  });

  it("is false for any other error", () => {
    expect(isUniqueViolation(Object.assign(new Error("fk"), { code: "23503" }))).toBe(false);
    expect(isUniqueViolation(new Error("plain"))).toBe(false);
    expect(isUniqueViolation("not an error")).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});
