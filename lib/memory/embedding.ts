// Which embedding model memories use, from OPENAI_EMBEDDING_MODEL: unset, none (retrieval is
// full text only); `offline`, the offline embedding model; any other name, that model on the
// OpenAI-compatible server the chat models use (OPENAI_API_KEY, OPENAI_BASE_URL), through the AI
// SDK's embedMany. Every vector must have the column's length; one that does not is an
// EmbeddingLengthError, which retrieval treats as a soft failure and a write as "no vector".
import "server-only";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { MEMORY_EMBEDDING_DIMENSIONS } from "@/db/schema/memories";
import { embedModelValues } from "@/lib/models/calls";
import { loadModelConfig } from "@/lib/models/model-config";
import { createOfflineEmbeddingModel, OFFLINE_EMBEDDING_MODEL_ID } from "./offline-embedding";

export class EmbeddingLengthError extends Error {
  constructor(
    readonly modelId: string,
    readonly length: number,
  ) {
    super(
      `The embedding model ${modelId} returned vectors of ${length} dimensions; ` +
        `memories need ${MEMORY_EMBEDDING_DIMENSIONS}.`,
    );
    this.name = "EmbeddingLengthError";
  }
}

type Embedder = {
  model: EmbeddingModelV4;
  /** Sent with each call, or left out for servers that refuse the parameter. */
  dimensions: number | undefined;
};

let cached: { key: string; embedder: Embedder | null } | null = null;

/** The configured embedding model, or null when none is (read from the environment). */
export async function getEmbedder(): Promise<Embedder | null> {
  const settings = loadModelConfig();
  const modelId = settings.OPENAI_EMBEDDING_MODEL;
  const key = [modelId, settings.OPENAI_API_KEY, settings.OPENAI_BASE_URL].join("\u0000");
  if (cached?.key === key) return cached.embedder;
  let embedder: Embedder | null = null;
  if (modelId === OFFLINE_EMBEDDING_MODEL_ID) {
    embedder = { model: createOfflineEmbeddingModel(), dimensions: MEMORY_EMBEDDING_DIMENSIONS };
  } else if (modelId) {
    const { createOpenAI } = await import("@ai-sdk/openai");
    const openai = createOpenAI({
      apiKey: settings.OPENAI_API_KEY,
      baseURL: settings.OPENAI_BASE_URL,
    });
    // OpenAI's text-embedding-3 models take `dimensions`; ada-002 refuses it, and compatible
    // servers (Ollama, vLLM, llama.cpp) may refuse or ignore it, so they get it only when it is
    // set explicitly. A server that answers with another length fails retrieval softly.
    const explicit = settings.OPENAI_EMBEDDING_DIMENSIONS !== undefined;
    const accepts = settings.OPENAI_BASE_URL ? explicit : modelId !== "text-embedding-ada-002";
    embedder = {
      model: openai.embedding(modelId),
      dimensions: accepts ? MEMORY_EMBEDDING_DIMENSIONS : undefined,
    };
  }
  cached = { key, embedder };
  return embedder;
}

/** Whether memories get vectors (and retrieval is hybrid). */
export async function embeddingsEnabled(): Promise<boolean> {
  return (await getEmbedder()) !== null;
}

/** A vector without a single non-zero entry: a text with nothing to embed. */
export function isZeroVector(vector: readonly number[]): boolean {
  return vector.every((value) => value === 0);
}

/**
 * The embeddings of `values` in order, each checked for the column's length; null when no
 * embedding model is configured. Throws on a provider failure or an EmbeddingLengthError.
 */
export async function embedTexts(
  values: string[],
  { abortSignal }: { abortSignal?: AbortSignal } = {},
): Promise<number[][] | null> {
  const embedder = await getEmbedder();
  if (!embedder) return null;
  if (values.length === 0) return [];
  const { embeddings } = await embedModelValues({
    call: "embedding",
    model: embedder.model,
    values,
    dimensions: embedder.dimensions,
    maxRetries: 1,
    abortSignal,
  });
  for (const vector of embeddings) {
    if (vector.length !== MEMORY_EMBEDDING_DIMENSIONS) {
      throw new EmbeddingLengthError(embedder.model.modelId, vector.length);
    }
  }
  return embeddings;
}

/** pgvector's text form of a vector: `[0.1,0.2,…]`. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(",")}]`;
}
