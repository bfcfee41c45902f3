import { asSchema } from "ai";
import { encode } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { stateDeltaToolInput } from "./tool-schema";

describe("update_workstream_state's input schema", () => {
  const schema = asSchema(stateDeltaToolInput);

  it("I13.5 is shown to the model in a few hundred tokens, not the ~1,400 of the converted zod schema", async () => {
    // About 500 since every field carries a short description with an example (what a model
    // needs to fill it in), still a third of the converted zod schema's.
    expect(encode(JSON.stringify(await schema.jsonSchema)).length).toBeLessThan(550);
  });

  it("I13.5 still accepts exactly a WorkstreamStateDelta", async () => {
    const ok = await schema.validate?.({ tasks: { add: [{ text: "Write the FAQ" }] } });
    expect(ok).toEqual({
      success: true,
      value: { tasks: { add: [{ text: "Write the FAQ", status: "open" }] } },
    });
    // In strict mode the model sends every field; null stands for one it leaves out.
    const none = { id: null, rationale: null, confidence: null, status: null, binding: null };
    const strict = await schema.validate?.({
      tasks: {
        add: [{ text: "Write the FAQ", agentId: null, ...none }],
        update: null,
        remove: null,
      },
      risks: null,
    });
    expect(strict).toEqual(ok);
    // A field of another list, an unknown list and a text over the limit are refused.
    for (const wrong of [
      { tasks: { add: [{ text: "x", confidence: 0.5 }] } },
      { moods: { add: [{ text: "x" }] } },
      { risks: { add: [{ text: "y".repeat(501) }] } },
    ]) {
      expect((await schema.validate?.(wrong))?.success, JSON.stringify(wrong).slice(0, 60)).toBe(
        false,
      );
    }
  });
});
