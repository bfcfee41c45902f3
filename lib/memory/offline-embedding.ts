// The offline embedding model: a real AI SDK EmbeddingModelV4 that needs no network. It hashes
// a text's word stems and the character trigrams of its words into 1536 dimensions (signed
// feature hashing) and L2-normalises the sum, so texts that share words or parts of words
// (cycling, bicycles) point in similar directions and unrelated texts are nearly orthogonal.
// Deterministic: the same text always gives the same vector, on every machine.
import type { EmbeddingModelV4, EmbeddingModelV4CallOptions } from "@ai-sdk/provider";
import { MEMORY_EMBEDDING_DIMENSIONS } from "@/db/schema/memories";

export const OFFLINE_EMBEDDING_MODEL_ID = "offline";

const STEM_WEIGHT = 1;
const TRIGRAM_WEIGHT = 1;

// Words nearly every English sentence has: as features they would make unrelated texts look
// alike (a real embedding model learns to discount them; this one is told).
const STOP_WORDS = new Set(
  (
    "a an and are as at be but by can could did do does for from had has have he her his how i " +
    "if in into is it its me my no not of on or our she so than that the their them then there " +
    "these they this to us was we were what when where which who why will with would you your"
  ).split(" "),
);

// A few suffix rules. Postgres's own stemmer does the linguistic work for full-text search; here
// a stem only has to be the same for the forms of one word people write (invoice, invoices), so
// a handful of rules does (a stemming library would add a dependency for no visible difference).
const SUFFIXES = ["ations", "ation", "ings", "ing", "ness", "ment", "edly", "ed", "ly", "er"];

export function stemOf(word: string): string {
  let stem = word;
  if (stem.length > 4 && stem.endsWith("ies")) stem = `${stem.slice(0, -3)}y`;
  else if (stem.length > 4 && /(?:[sxz]|ch|sh)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.length > 3 && stem.endsWith("s") && !stem.endsWith("ss")) stem = stem.slice(0, -1);
  for (const suffix of SUFFIXES) {
    if (stem.length - suffix.length >= 3 && stem.endsWith(suffix)) {
      return stem.slice(0, -suffix.length);
    }
  }
  // "invoice" and "invoic(ed)" alike: a final e is dropped.
  return stem.length > 4 && stem.endsWith("e") ? stem.slice(0, -1) : stem;
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
    if (STOP_WORDS.has(word)) continue;
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
