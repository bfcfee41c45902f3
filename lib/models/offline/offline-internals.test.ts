/**
 * Unit tests for the offline model's internals: trigger parsing, text chunking and the
 * JSON-schema filler (round-tripped through zod's JSON schema export and zod validation).
 */
import { countTokens } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRng } from "./random";
import { fillSchema } from "./schema-fill";
import { chunkText } from "./timing";
import { countInputTokens, countTextTokens } from "./tokens";
import { parseTriggers, stripTriggers } from "./triggers";

describe("parseTriggers", () => {
  it("finds every trigger, case-insensitively, and strips them from the text", () => {
    const parsed = parseTriggers(
      "[LONG] Plan [slow:250] a trip [fail:3] [Reason] [hang] [echo] [words:12] [fail-after-text] now",
    );
    expect(parsed).toMatchObject({
      cleanText: "Plan a trip now",
      long: true,
      slow: { kind: "fixed", ms: 250 },
      fail: 3,
      reason: true,
      hang: true,
      echo: true,
      words: 12,
      failAfterText: true,
    });
    expect(parseTriggers("[slow] x").slow).toEqual({ kind: "factor", factor: 10 });
    expect(parseTriggers("[fail] x").fail).toBe("always");
  });

  it("parses tool triggers with JSON args containing brackets", () => {
    const parsed = parseTriggers('Do [tool:search:{"q":"a]b","tags":["x","y"]}] and [tool:ping]');
    expect(parsed.tools).toEqual([
      { name: "search", argsJson: '{"q":"a]b","tags":["x","y"]}' },
      { name: "ping", argsJson: undefined },
    ]);
    expect(parsed.cleanText).toBe("Do and");
  });

  it("leaves ordinary brackets and markdown links alone", () => {
    const text = "See [1] and [the docs](https://example.com) or [tool:] [words:x]";
    expect(parseTriggers(text)).toMatchObject({ cleanText: text, tools: [], words: undefined });
  });
});

describe("chunkText", () => {
  it("makes 36–72 character chunks that reassemble exactly, without splitting emoji", () => {
    const text = "Streaming 🚀 emoji-heavy text 🎉🎉 ".repeat(20) + "x".repeat(300);
    const chunks = chunkText(text, createRng(7));
    expect(chunks.join("")).toBe(text);
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThanOrEqual(36);
      expect(chunk.length).toBeLessThanOrEqual(72);
      expect(chunk).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });
});

describe("fillSchema", () => {
  const roundTrip = <T extends z.ZodType>(schema: T) =>
    schema.parse(fillSchema(z.toJSONSchema(schema)));

  it("gives the smallest value that satisfies formats, bounds, enums, nullables, unions and tuples", () => {
    const schema = z.object({
      title: z.string().min(5).max(20),
      id: z.uuid(),
      email: z.email(),
      site: z.url(),
      at: z.iso.datetime(),
      day: z.iso.date(),
      ratio: z.number().gt(0).lt(1),
      step: z.int().multipleOf(5).min(12).max(40),
      mood: z.enum(["calm", "busy"]),
      maybe: z.string().nullable(),
      either: z.union([z.number(), z.boolean()]),
      pair: z.tuple([z.string(), z.int()]),
      tags: z.array(z.string()).min(2),
      literal: z.literal("fixed"),
      optional: z.string().optional(),
    });
    expect(roundTrip(schema)).toMatchObject({
      title: "aaaaa",
      step: 15,
      mood: "calm",
      maybe: null,
      either: 0,
      pair: ["", 0],
      tags: ["", ""],
      literal: "fixed",
    });
    expect(roundTrip(schema)).not.toHaveProperty("optional");
  });

  it("resolves recursive $refs and intersections", () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const node: z.ZodType<Node> = z.object({
      name: z.string(),
      get children() {
        return z.array(node);
      },
    });
    const merged = z.intersection(z.object({ a: z.string() }), z.object({ b: z.int().min(2) }));
    expect(roundTrip(z.object({ root: node, merged }))).toEqual({
      root: { name: "", children: [] },
      merged: { a: "", b: 2 },
    });
  });
});

describe("stripTriggers", () => {
  it("removes triggers line by line and keeps each line's indentation", () => {
    expect(stripTriggers("Member: plan it [long] [slow:5]\n  - step [echo] one\nAgent: ok")).toBe(
      "Member: plan it\n  - step one\nAgent: ok",
    );
  });
});

describe("countInputTokens", () => {
  const schema = { type: "object", properties: { city: { type: "string" } } };
  const tool = { name: "weather", description: "The weather in a city.", inputSchema: schema };
  const asJson = (t: typeof tool) =>
    countTokens(JSON.stringify({ name: t.name, description: t.description, parameters: schema }));

  it("counts a tool as its name, description and parameters in JSON, on every call alike", () => {
    const input = { messageDigests: ["user: hi"], fileCount: 0 };
    const expected = 3 + countTokens("user: hi") + 4 + asJson(tool);
    expect(countInputTokens({ ...input, tools: [tool] })).toBe(expected);
    expect(countInputTokens({ ...input, tools: [{ ...tool }] })).toBe(expected);
    // The same parameters object under a longer description is counted again, not remembered.
    const renamed = { ...tool, description: "The weather and the wind in a city, hour by hour." };
    expect(countInputTokens({ ...input, tools: [renamed] })).toBe(
      3 + countTokens("user: hi") + 4 + asJson(renamed),
    );
  });

  it("counts short and long texts exactly, the second time as the first", () => {
    const long = "a long message about the harbour wall and its copper flashing ".repeat(8);
    for (const text of ["hi there", long]) {
      expect(countTextTokens(text)).toBe(countTokens(text));
      expect(countTextTokens(text)).toBe(countTokens(text));
    }
  });
});
