/** The strict schema helper: what the model is shown, and how what it sends back is read. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { strictSchema } from "./strict-schema";

const input = z.object({
  query: z.string().trim().min(1).max(20),
  limit: z.number().int().min(1).max(10).optional(),
  kind: z.enum(["a", "b"]).optional(),
});

describe("strictSchema", () => {
  it("shows optional fields as nullable and required, and a null reads as an absent field", async () => {
    const schema = strictSchema(input);
    const json = (await schema.jsonSchema) as Record<string, unknown>;
    expect(json).toMatchObject({
      type: "object",
      required: ["query", "limit", "kind"],
      additionalProperties: false,
      properties: {
        query: { type: "string" },
        limit: { type: ["integer", "null"] },
        kind: { type: ["string", "null"], enum: ["a", "b", null] },
      },
    });
    const parsed = await schema.validate?.({ query: " words ", limit: null, kind: null });
    expect(parsed).toEqual({ success: true, value: { query: "words" } });
  });

  it("checks the lengths strict mode cannot express when it parses", async () => {
    const schema = strictSchema(input);
    const json = JSON.stringify(await schema.jsonSchema);
    expect(json).not.toContain("maxLength");
    const parsed = await schema.validate?.({ query: "x".repeat(21), limit: null, kind: null });
    expect(parsed?.success).toBe(false);
  });
});
