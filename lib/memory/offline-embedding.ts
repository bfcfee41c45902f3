// The offline embedding model: a real AI SDK EmbeddingModelV4 that needs no network. It hashes
// a text's word stems and the character trigrams of its words into 1536 dimensions (signed
// feature hashing) and L2-normalises the sum, so texts that share words or parts of words
// (cycling, bicycles) point in similar directions and unrelated texts are nearly orthogonal.
// Deterministic: the same text always gives the same vector, on every machine.
import type { EmbeddingModelV4, EmbeddingModelV4CallOptions } from "@ai-sdk/provider";
import { MEMORY_EMBEDDING_DIMENSIONS } from "@/db/schema/memories";

export const OFFLINE_EMBEDDING_MODEL_ID = "offline";

const STEM_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.5;

// A few suffixes, longest first. Postgres's own stemmer does the linguistic work for full-text
// search; here a stem only has to be the same for the forms of one word that people write, so a
// handful of rules does (a stemming library would add a dependency for no visible difference).
const SUFFIXES = [
  "ations",
  "ation",
  "ings",
  "ing",
  "ness",
  "ment",
  "ies",
  "ied",
  "ers",
  "est",
  "ed",
  "er",
  "es",
  "ly",
  "s",
];

export function stemOf(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) {
      return word.slice(0, -suffix.length);
    }
  }
  return word;
}

/** The words of a text: letters and digits in any script, lower-cased. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** 32-bit FNV-1a: fast, well spread, and the same everywhere. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function addFeature(vector: Float64Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const index = hash % vector.length;
  // The sign comes from another hash, so collisions cancel out on average instead of piling up.
  const sign = fnv1a(feature, 0x9747b28c) & 1 ? 1 : -1;
  vector[index] = (vector[index] ?? 0) + sign * weight;
}

/** The text's vector: all zeros for a text without a letter or digit. */
export function offlineEmbedding(text: string, dimensions = MEMORY_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Float64Array(dimensions);
  for (const word of wordsOf(text)) {
    const stem = stemOf(word);
    addFeature(vector, `w:${stem}`, STEM_WEIGHT);
    const padded = `#${stem}#`;
    for (let i = 0; i + 3 <= padded.length; i++) {
      addFeature(vector, `t:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
    }
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return Array.from(vector, (value) => (norm > 0 ? value / norm : 0));
}

export function createOfflineEmbeddingModel(): EmbeddingModelV4 {
  return {
    specificationVersion: "v4",
    provider: "offline",
    modelId: OFFLINE_EMBEDDING_MODEL_ID,
    maxEmbeddingsPerCall: Number.POSITIVE_INFINITY,
    supportsParallelCalls: true,
    async doEmbed({ values, dimensions }: EmbeddingModelV4CallOptions) {
      return {
        embeddings: values.map((value) => offlineEmbedding(value, dimensions)),
        usage: { tokens: values.reduce((sum, value) => sum + wordsOf(value).length, 0) },
        warnings: [],
      };
    },
  };
}
