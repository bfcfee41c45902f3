import { describe, expect, it } from "vitest";
import { loadModelConfig } from "./model-config";

describe("model configuration", () => {
  it("a malformed value fails with a message naming the variable", () => {
    expect(() => loadModelConfig({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "not a url" })).toThrow(
      /OPENAI_BASE_URL/,
    );
    expect(() => loadModelConfig({ MODEL_ATTEMPTS: "zero" })).toThrow(/MODEL_ATTEMPTS/);
    expect(() => loadModelConfig({ OPENAI_BASE_URL: "http://localhost:11434/v1" })).toThrow(
      /OPENAI_API_KEY/,
    );
  });

  it("no configuration at all is valid: the offline model", () => {
    expect(loadModelConfig({}).MODEL_ATTEMPTS).toBe(3);
  });
});
