import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acceptsFile, configuredEntries, costUsd, modelCapabilities } from "./catalogue";
import { loadModelConfig } from "./model-config";
import { apiOf, providerDefaults, reasoningEffortOf } from "./registry";

const VARIABLE = "WORKSTREAMS_MODEL_CATALOGUE";
const LLAMA = {
  api: "chat",
  contextWindow: 32_768,
  input: { image: true, pdf: false },
  tools: true,
  structuredOutput: "tool",
  reasoning: null,
  prices: null,
};

afterEach(() => {
  delete process.env[VARIABLE];
});

describe("the model catalogue", () => {
  it("a built-in OpenAI model is known: its API, window, files, prices and reasoning", () => {
    const mini = modelCapabilities("gpt-4.1-mini");
    expect(mini).toMatchObject({
      known: true,
      api: "responses",
      contextWindow: 1_047_576,
      input: { image: true, pdf: true },
      structuredOutput: "json_schema",
      reasoning: null,
    });
    expect(modelCapabilities("o4-mini").reasoning?.efforts).toContain("high");
    expect(costUsd("gpt-4.1-mini", { inputTokens: 120, outputTokens: 30 })).toBeCloseTo(
      (120 * 0.4 + 30 * 1.6) / 1e6,
      10,
    );
  });

  it("an unknown model gets conservative defaults and is flagged, its cost unknown", () => {
    expect(modelCapabilities("llama3.1:8b")).toMatchObject({
      known: false,
      source: "unknown",
      contextWindow: 8_192,
      input: { image: false, pdf: false },
      tools: true,
      structuredOutput: "json_object",
      reasoning: null,
      prices: null,
    });
    expect(acceptsFile("llama3.1:8b", "image/png")).toBe(false);
    expect(costUsd("llama3.1:8b", { inputTokens: 10, outputTokens: 10 })).toBeNull();
  });

  it("the variable adds a model as inline JSON or a file, and overrides fields of a built-in one", () => {
    process.env[VARIABLE] = JSON.stringify({ "llama3.1:8b": LLAMA, "gpt-4o": { api: "chat" } });
    expect(modelCapabilities("llama3.1:8b")).toMatchObject({ known: true, contextWindow: 32_768 });
    expect(acceptsFile("llama3.1:8b", "image/png")).toBe(true);
    expect(acceptsFile("llama3.1:8b", "application/pdf")).toBe(false);
    expect(modelCapabilities("gpt-4o")).toMatchObject({ api: "chat", contextWindow: 128_000 });

    const file = join(mkdtempSync(join(tmpdir(), "catalogue-")), "models.json");
    writeFileSync(file, JSON.stringify({ "qwen2.5": { ...LLAMA, contextWindow: 65_536 } }));
    process.env[VARIABLE] = file;
    expect(modelCapabilities("qwen2.5").contextWindow).toBe(65_536);
  });

  it("a bad entry stops start-up with an error naming the model and the field", () => {
    expect(() =>
      loadModelConfig({ [VARIABLE]: JSON.stringify({ "llama3.1:8b": { ...LLAMA, api: "soap" } }) }),
    ).toThrow(/model "llama3\.1:8b": api/);
    expect(() =>
      configuredEntries({ [VARIABLE]: JSON.stringify({ "phi-4": { api: "chat" } }) }),
    ).toThrow(/model "phi-4".*needs every field/);
    expect(() => configuredEntries({ [VARIABLE]: "{ not json" })).toThrow(/not valid JSON/);
    expect(() => configuredEntries({ [VARIABLE]: "/nowhere/models.json" })).toThrow(
      /cannot read the file/,
    );
  });

  it("OpenAI is called through its catalogued API; a compatible server through chat unless configured", () => {
    const settings = loadModelConfig({ OPENAI_API_KEY: "k" });
    const compatible = loadModelConfig({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://x/v1" });
    expect(apiOf(modelCapabilities("gpt-4.1"), settings)).toBe("responses");
    expect(apiOf(modelCapabilities("gpt-4.1"), compatible)).toBe("chat");
    process.env[VARIABLE] = JSON.stringify({ "gpt-4.1": { api: "responses" } });
    expect(apiOf(modelCapabilities("gpt-4.1"), compatible)).toBe("responses");
  });

  it("Responses API calls are not stored unless OPENAI_STORE=true; reasoning follows the profile", () => {
    const settings = loadModelConfig({ OPENAI_API_KEY: "k" });
    expect(providerDefaults(modelCapabilities("gpt-4.1"), "fast", settings)).toEqual({
      store: false,
    });
    const stored = loadModelConfig({ OPENAI_API_KEY: "k", OPENAI_STORE: "true" });
    expect(providerDefaults(modelCapabilities("gpt-4.1"), "fast", stored).store).toBe(true);
    expect(providerDefaults(modelCapabilities("o4-mini"), "deep", settings)).toEqual({
      store: false,
      reasoningEffort: "high",
      reasoningSummary: "auto",
    });
    const overridden = loadModelConfig({
      OPENAI_API_KEY: "k",
      OPENAI_REASONING_EFFORT_FAST: "minimal",
    });
    expect(reasoningEffortOf(modelCapabilities("gpt-5-mini"), "fast", overridden)).toBe("minimal");
    // o4-mini offers no minimal effort: the nearest it has.
    expect(reasoningEffortOf(modelCapabilities("o4-mini"), "fast", overridden)).toBe("low");
    expect(reasoningEffortOf(modelCapabilities("gpt-4.1"), "deep", settings)).toBeNull();
  });
});
