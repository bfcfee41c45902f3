import { cosineSimilarity, embed, embedMany } from "ai";
import { describe, expect, it } from "vitest";
import { createOfflineEmbeddingModel, offlineEmbedding, stemOf } from "./offline-embedding";

const model = createOfflineEmbeddingModel();
const norm = (vector: number[]) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));

describe("the offline embedding model", () => {
  it("I14.2 gives 1536-dimensional, L2-normalised vectors through the AI SDK's embed", async () => {
    const { embedding } = await embed({ model, value: "The client prefers email updates" });
    expect(embedding).toHaveLength(1536);
    expect(norm(embedding)).toBeCloseTo(1, 10);
  });

  it("I14.2 is deterministic: the same text, the same vector, alone or in a batch", async () => {
    const text = "Quarterly reports are due on the fifth working day";
    const { embeddings } = await embedMany({ model, values: [text, "something else", text] });
    expect(embeddings[0]).toEqual(embeddings[2]);
    expect(embeddings[0]).toEqual(offlineEmbedding(text));
  });

  it("I14.2 puts similar words and texts closer than unrelated ones", () => {
    const cycling = offlineEmbedding("Dana cycles to the office");
    const bicycle = offlineEmbedding("bicycle commuting");
    const invoices = offlineEmbedding("invoices are paid on Fridays");
    expect(cosineSimilarity(cycling, bicycle)).toBeGreaterThan(cosineSimilarity(cycling, invoices));
    const plan = offlineEmbedding("planning");
    expect(cosineSimilarity(plan, offlineEmbedding("plans"))).toBeGreaterThan(
      cosineSimilarity(plan, offlineEmbedding("budget")),
    );
    expect(
      cosineSimilarity(invoices, offlineEmbedding("Invoices are paid on Fridays!")),
    ).toBeCloseTo(1, 10);
  });

  it("I14.2 a text without letters or digits is the zero vector, not NaN", () => {
    const vector = offlineEmbedding("?!… ***");
    expect(vector).toHaveLength(1536);
    expect(vector.every((value) => value === 0)).toBe(true);
  });

  it("stems the common forms of a word alike", () => {
    expect(stemOf("reports")).toBe(stemOf("report"));
    expect(stemOf("planning")).toBe("plann");
    expect(stemOf("bus")).toBe("bus");
  });
});
