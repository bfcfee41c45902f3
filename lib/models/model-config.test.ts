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

  it("I14.1 an embedding length other than the memories column's is a start-up error naming it", () => {
    expect(() => loadModelConfig({ OPENAI_EMBEDDING_DIMENSIONS: "768" })).toThrow(
      /OPENAI_EMBEDDING_DIMENSIONS must be 1536/,
    );
    expect(() => loadModelConfig({ OPENAI_EMBEDDING_DIMENSIONS: "many" })).toThrow(
      /OPENAI_EMBEDDING_DIMENSIONS/,
    );
    expect(
      loadModelConfig({ OPENAI_EMBEDDING_DIMENSIONS: "1536" }).OPENAI_EMBEDDING_DIMENSIONS,
    ).toBe(1536);
    expect(() => loadModelConfig({ OPENAI_EMBEDDING_MODEL: "text-embedding-3-small" })).toThrow(
      /OPENAI_API_KEY/,
    );
    expect(loadModelConfig({ OPENAI_EMBEDDING_MODEL: "offline" }).OPENAI_EMBEDDING_MODEL).toBe(
      "offline",
    );
  });
});
