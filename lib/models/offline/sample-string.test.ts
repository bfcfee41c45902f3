import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createSampleContext, sampleJsonSchema } from "./json-schema-sample";

describe("sampled tool inputs", () => {
  it("UI15 a time zone is an IANA zone name, not a date", () => {
    // The shape of current_time's input (lib/agents/tools.ts).
    const schema = z.toJSONSchema(z.object({ timeZone: z.string() }));
    const input = sampleJsonSchema(schema, createSampleContext("What time is it in Tokyo?"));
    const { timeZone } = z.object({ timeZone: z.string() }).parse(input);
    expect(timeZone).toMatch(/^[A-Z][A-Za-z_]+\/[A-Za-z_]+$/);
    // Intl accepts it as a zone.
    expect(() => new Intl.DateTimeFormat("en-US", { timeZone })).not.toThrow();
  });
});
