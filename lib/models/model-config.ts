// The model configuration from the environment, validated once at start-up: a malformed value
// stops the server with a message that names the variable.
import { z } from "zod";
import { MEMORY_EMBEDDING_DIMENSIONS } from "@/db/schema/memories";
import { configuredEntries } from "./catalogue";

const Effort = z.enum(["minimal", "low", "medium", "high"], {
  message: "must be minimal, low, medium or high",
});

const Env = z.object({
  OPENAI_API_KEY: z.string().trim().optional(),
  OPENAI_BASE_URL: z.url({ message: "must be a URL such as http://localhost:11434/v1" }).optional(),
  OPENAI_MODEL: z.string().trim().min(1).optional(),
  OPENAI_MODEL_FAST: z.string().trim().min(1).optional(),
  OPENAI_MODEL_BALANCED: z.string().trim().min(1).optional(),
  OPENAI_MODEL_DEEP: z.string().trim().min(1).optional(),
  OPENAI_FALLBACK_MODEL: z.string().trim().min(1).optional(),
  /** `true` lets OpenAI store Responses API calls; unset or `false`, nothing is stored there. */
  OPENAI_STORE: z.enum(["true", "false"], { message: "must be true or false" }).optional(),
  OPENAI_REASONING_EFFORT_FAST: Effort.optional(),
  OPENAI_REASONING_EFFORT_BALANCED: Effort.optional(),
  OPENAI_REASONING_EFFORT_DEEP: Effort.optional(),
  MODEL_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  MODEL_RETRY_BASE_MS: z.coerce.number().int().min(0).max(60_000).default(250),
  MODEL_FIRST_TOKEN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  MODEL_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  OFFLINE_MODEL_CHUNK_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  /** Unset: no vectors (retrieval is full text); `offline`: the offline embedding model. */
  OPENAI_EMBEDDING_MODEL: z.string().trim().min(1).optional(),
  // The memories table's column is vector(1536): another length could never be stored.
  OPENAI_EMBEDDING_DIMENSIONS: z.coerce
    .number({ message: "must be a whole number" })
    .int({ message: "must be a whole number" })
    .refine((value) => value === MEMORY_EMBEDDING_DIMENSIONS, {
      message: `must be ${MEMORY_EMBEDDING_DIMENSIONS} (the length of the memories table's vector column)`,
    })
    .optional(),
});

export type ModelConfig = z.infer<typeof Env>;

export class ModelConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid model configuration: ${variable} ${problem}.`);
    this.name = "ModelConfigError";
  }
}

export function loadModelConfig(
  env: Record<string, string | undefined> = process.env,
): ModelConfig {
  const present = Object.fromEntries(
    Object.keys(Env.shape).flatMap((key) => {
      const value = env[key];
      return value === undefined || value === "" ? [] : [[key, value]];
    }),
  );
  const parsed = Env.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ModelConfigError(
      String(issue?.path[0] ?? "a variable"),
      issue?.message ?? "is invalid",
    );
  }
  if (parsed.data.OPENAI_BASE_URL && !parsed.data.OPENAI_API_KEY) {
    throw new ModelConfigError(
      "OPENAI_API_KEY",
      "is required with OPENAI_BASE_URL (use any non-empty value for servers without keys)",
    );
  }
  // A malformed catalogue stops the server too, naming the bad entry.
  configuredEntries(env);
  const embeddingModel = parsed.data.OPENAI_EMBEDDING_MODEL;
  if (embeddingModel && embeddingModel !== "offline" && !parsed.data.OPENAI_API_KEY) {
    throw new ModelConfigError(
      "OPENAI_API_KEY",
      `is required with OPENAI_EMBEDDING_MODEL=${embeddingModel} (or set it to "offline")`,
    );
  }
  return parsed.data;
}
