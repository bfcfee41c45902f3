/**
 * The model check against an OpenAI-compatible server (the fake's Chat Completions and
 * embeddings): each configured model gets its stream, tool call and strict structured output,
 * the embedding model its embedding, and a failure shows the server's status and message beside
 * what worked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "@/tests/support/fake-openai";
import { checkModels, formatModelCheck } from "./model-check";

let fake: FakeOpenAI;
const saved = { ...process.env };

beforeAll(async () => {
  fake = await startFakeOpenAI();
  Object.assign(process.env, {
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: fake.url,
    OPENAI_MODEL_FAST: "gpt-4.1-mini",
    OPENAI_MODEL_BALANCED: "gpt-4.1",
    OPENAI_MODEL_DEEP: "local-deep",
    OPENAI_EMBEDDING_MODEL: "text-embedding-3-small",
  });
});

afterAll(async () => {
  process.env = saved;
  await fake.close();
});

const city = JSON.stringify({ city: "Paris", country: "France", population: 2_100_000 });

describe("models:check", () => {
  it("calls every configured model once per check and reports each failure's status and message", async () => {
    fake.plans = [
      { kind: "text", text: "Hello there." },
      { kind: "tool", name: "get_weather", args: { city: "Paris" } },
      { kind: "text", text: city },
      { kind: "text", text: "Hi." },
      { kind: "fail", status: 400, message: "tools are not supported by this model" },
      { kind: "text", text: city },
      { kind: "fail", status: 404, message: "model local-deep not found" },
      { kind: "fail", status: 404, message: "model local-deep not found" },
      { kind: "fail", status: 404, message: "model local-deep not found" },
    ];
    const report = await checkModels();
    expect(report.provider).toBe("openai");
    const table = Object.fromEntries(
      report.rows.map((row) => [
        row.modelId,
        row.results.map(({ check, ok, status }) => ({ check, ok, status })),
      ]),
    );
    expect(table["gpt-4.1-mini"]).toEqual([
      { check: "stream", ok: true, status: null },
      { check: "tool", ok: true, status: null },
      { check: "structured", ok: true, status: null },
    ]);
    expect(table["gpt-4.1"]?.[1]).toEqual({ check: "tool", ok: false, status: 400 });
    expect(table["local-deep"]?.every((result) => !result.ok && result.status === 404)).toBe(true);
    expect(table["text-embedding-3-small"]).toEqual([
      { check: "embedding", ok: true, status: null },
    ]);
    // No retries: one request per check of each chat model.
    expect(fake.requests).toHaveLength(9);
    // The structured output and the tool went in strict mode (the fake refuses a broken one).
    expect(fake.requests[2]?.response_format?.json_schema?.strict).toBe(true);
    expect(fake.requests[1]?.tools?.[0]?.function.strict).toBe(true);

    const printed = formatModelCheck(report);
    expect(printed).toContain("tools are not supported by this model");
    expect(printed).toContain("model local-deep not found");
    // What the catalogue assumes, known model or not.
    expect(printed).toContain(
      "gpt-4.1 (balanced): the catalogue assumes chat API, window 1,047,576",
    );
    expect(printed).toContain("local-deep (deep): the catalogue assumes not in the catalogue");
  });
});

describe("models:check through each server profile", () => {
  const plans = () => [
    { kind: "text" as const, text: "Hello there." },
    { kind: "tool" as const, name: "get_weather", args: { city: "Paris" } },
    { kind: "text" as const, text: city },
  ];
  const only = (model: string) => ({
    OPENAI_MODEL_FAST: model,
    OPENAI_MODEL_BALANCED: model,
    OPENAI_MODEL_DEEP: model,
  });

  it("Responses: the calls go to the Responses API, stored nowhere, and every check passes", async () => {
    Object.assign(process.env, {
      ...only("gpt-4.1-mini"),
      WORKSTREAMS_MODEL_CATALOGUE: JSON.stringify({ "gpt-4.1-mini": { api: "responses" } }),
    });
    fake.profile = "responses";
    fake.requests = [];
    fake.plans = plans();
    try {
      const report = await checkModels();
      const row = report.rows.find((candidate) => candidate.modelId === "gpt-4.1-mini");
      expect(row?.results.map(({ check, ok }) => ({ check, ok }))).toEqual([
        { check: "stream", ok: true },
        { check: "tool", ok: true },
        { check: "structured", ok: true },
      ]);
      expect(fake.requests.map((request) => request.api)).toEqual([
        "responses",
        "responses",
        "responses",
      ]);
      expect(fake.requests.every((request) => request.store === false)).toBe(true);
      expect(formatModelCheck(report)).toContain("the catalogue assumes responses API");
    } finally {
      delete process.env.WORKSTREAMS_MODEL_CATALOGUE;
      fake.profile = "chat";
    }
  });

  it("Compatible: a local model the catalogue does not know is asked for JSON mode, not a strict schema", async () => {
    Object.assign(process.env, only("llama3.1:8b"));
    fake.profile = "compatible";
    fake.requests = [];
    fake.plans = plans();
    try {
      const report = await checkModels();
      const row = report.rows.find((candidate) => candidate.modelId === "llama3.1:8b");
      expect(row?.results.every((result) => result.ok)).toBe(true);
      expect(fake.requests[2]?.response_format?.type).toBe("json_object");
      expect(formatModelCheck(report)).toContain(
        "llama3.1:8b (fast, balanced, deep): the catalogue assumes not in the catalogue",
      );
    } finally {
      fake.profile = "chat";
    }
  });
});
