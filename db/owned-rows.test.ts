import { describe, expect, it } from "vitest";
import { oneOwnedRow } from "./owned-rows";

const codes = { notFound: "not_found:memory", exists: "conflict:memory_exists" } as const;

describe("oneOwnedRow", () => {
  it("answers the row, not found for none, and a conflict for a unique violation", async () => {
    await expect(oneOwnedRow(Promise.resolve([{ id: "a" }]), codes)).resolves.toEqual({ id: "a" });
    await expect(oneOwnedRow(Promise.resolve([]), codes)).rejects.toMatchObject({
      code: "not_found:memory",
    });
    const duplicate = new Error("Failed query", {
      cause: Object.assign(new Error("duplicate key"), { code: "23505" }),
    });
    await expect(oneOwnedRow(Promise.reject(duplicate), codes)).rejects.toMatchObject({
      code: "conflict:memory_exists",
    });
    const other = new Error("connection lost");
    await expect(oneOwnedRow(Promise.reject(other), codes)).rejects.toBe(other);
  });
});
