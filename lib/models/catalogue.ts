// What each model can do and costs: the API it speaks, its context window, the files it takes,
// tool calling, how it returns structured output, its reasoning options and its prices. Built-in
// entries cover the common OpenAI models; WORKSTREAMS_MODEL_CATALOGUE (a path to a JSON file, or
// the JSON itself) adds models or overrides fields of built-in ones, validated once at start-up.
// A model found nowhere gets conservative defaults and is flagged as unknown, so the inspector and
// the admin console can say where to set its capabilities instead of degrading it silently.
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { TokenUsage } from "./usage";

const Effort = z.enum(["minimal", "low", "medium", "high"]);
export type ReasoningEffort = z.infer<typeof Effort>;

const Entry = z.strictObject({
  /** The OpenAI API the model is called through (OpenAI-compatible servers speak `chat`). */
  api: z.enum(["responses", "chat"]),
  contextWindow: z.number().int().min(1_024),
  /** The attachments it takes as input besides text: images (PNG, JPEG, GIF, WebP) and PDFs. */
  input: z.strictObject({ image: z.boolean(), pdf: z.boolean() }),
  tools: z.boolean(),
  /** Strict json_schema, JSON mode, or a forced tool call. */
  structuredOutput: z.enum(["json_schema", "json_object", "tool"]),
  reasoning: z.strictObject({ efforts: z.array(Effort).min(1), summaries: z.boolean() }).nullable(),
  /** USD per million tokens; null: unknown, and so is every cost of the model. */
  prices: z
    .strictObject({
      inputPerMillion: z.number().min(0),
      outputPerMillion: z.number().min(0),
      cachedInputPerMillion: z.number().min(0).optional(),
    })
    .nullable(),
});

export type CatalogueEntry = z.infer<typeof Entry>;

export type ModelCapabilities = CatalogueEntry & {
  id: string;
  /** False: the conservative defaults below, not anything known about the model. */
  known: boolean;
  source: "built-in" | "catalogue" | "unknown";
};

/** Where an owner or operator sets an unknown model's capabilities (docs/configuration.md). */
export const CATALOGUE_VARIABLE = "WORKSTREAMS_MODEL_CATALOGUE";

export const UNKNOWN_MODEL: CatalogueEntry = {
  api: "chat",
  contextWindow: 8_192,
  input: { image: false, pdf: false },
  tools: true,
  structuredOutput: "json_object",
  reasoning: null,
  prices: null,
};

const FILES = { image: true, pdf: true };
const REASONS = { efforts: ["low", "medium", "high"] as ReasoningEffort[], summaries: true };
const openai = (
  contextWindow: number,
  inputPerMillion: number,
  outputPerMillion: number,
  cachedInputPerMillion: number,
  reasoning: CatalogueEntry["reasoning"] = null,
): CatalogueEntry => ({
  api: "responses",
  contextWindow,
  input: FILES,
  tools: true,
  structuredOutput: "json_schema",
  reasoning,
  prices: { inputPerMillion, outputPerMillion, cachedInputPerMillion },
});

/** Published prices and windows of OpenAI's models; the offline model costs nothing. */
export const BUILT_IN: Readonly<Record<string, CatalogueEntry>> = {
  "offline-1": {
    api: "chat",
    contextWindow: 200_000,
    input: FILES,
    tools: true,
    structuredOutput: "json_schema",
    reasoning: null,
    prices: { inputPerMillion: 0, outputPerMillion: 0 },
  },
  "gpt-4.1": openai(1_047_576, 2, 8, 0.5),
  "gpt-4.1-mini": openai(1_047_576, 0.4, 1.6, 0.1),
  "gpt-4.1-nano": openai(1_047_576, 0.1, 0.4, 0.025),
  "gpt-4o": openai(128_000, 2.5, 10, 1.25),
  "gpt-4o-mini": openai(128_000, 0.15, 0.6, 0.075),
  o3: openai(200_000, 2, 8, 0.5, REASONS),
  "o4-mini": openai(200_000, 1.1, 4.4, 0.275, REASONS),
  "gpt-5": openai(400_000, 1.25, 10, 0.125, {
    ...REASONS,
    efforts: ["minimal", ...REASONS.efforts],
  }),
  "gpt-5-mini": openai(400_000, 0.25, 2, 0.025, {
    ...REASONS,
    efforts: ["minimal", ...REASONS.efforts],
  }),
  "gpt-5-nano": openai(400_000, 0.05, 0.4, 0.005, {
    ...REASONS,
    efforts: ["minimal", ...REASONS.efforts],
  }),
};

export class ModelCatalogueError extends Error {
  constructor(problem: string) {
    super(`Invalid model catalogue (${CATALOGUE_VARIABLE}): ${problem}.`);
    this.name = "ModelCatalogueError";
  }
}

/** An added model gives every field; an override of a built-in one gives only what changes. */
function parseEntries(raw: unknown): Record<string, CatalogueEntry> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ModelCatalogueError("must be a JSON object keyed by model id");
  }
  const entries: Record<string, CatalogueEntry> = {};
  for (const [id, value] of Object.entries(raw)) {
    const base = BUILT_IN[id];
    const parsed = (base ? Entry.partial() : Entry).safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join(".") || "the entry";
      throw new ModelCatalogueError(
        `model "${id}": ${field} ${issue?.message ?? "is invalid"}${base ? "" : " (a model not built in needs every field)"}`,
      );
    }
    entries[id] = { ...base, ...parsed.data } as CatalogueEntry;
  }
  return entries;
}

function readSource(source: string): unknown {
  const text = source.trimStart().startsWith("{")
    ? source
    : (() => {
        try {
          return readFileSync(source, "utf8");
        } catch {
          throw new ModelCatalogueError(`cannot read the file ${source}`);
        }
      })();
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ModelCatalogueError(`is not valid JSON (${(error as Error).message})`);
  }
}

let cached: { source: string; entries: Record<string, CatalogueEntry> } | null = null;

/** The configured entries (none without the variable), parsed once per value of it. */
export function configuredEntries(
  env: Record<string, string | undefined> = process.env,
): Record<string, CatalogueEntry> {
  const source = env[CATALOGUE_VARIABLE]?.trim() ?? "";
  if (!source) return {};
  if (cached?.source !== source) cached = { source, entries: parseEntries(readSource(source)) };
  return cached.entries;
}

export function modelCapabilities(
  modelId: string,
  env: Record<string, string | undefined> = process.env,
): ModelCapabilities {
  const configured = configuredEntries(env)[modelId];
  if (configured) return { ...configured, id: modelId, known: true, source: "catalogue" };
  const builtIn = BUILT_IN[modelId];
  if (builtIn) return { ...builtIn, id: modelId, known: true, source: "built-in" };
  return { ...UNKNOWN_MODEL, id: modelId, known: false, source: "unknown" };
}

/**
 * What the owner's inspector and the admin console say of a model the catalogue does not know
 * (null for a known one): its capabilities are guesses, and where to set them.
 */
export function unknownModelNotice(modelId: string): string | null {
  if (modelCapabilities(modelId).known) return null;
  return (
    `${modelId} is not in the model catalogue, so it runs with conservative defaults: an 8,192-token ` +
    `window, text only, JSON mode, no reasoning and an unknown cost. Set its capabilities in ` +
    `${CATALOGUE_VARIABLE} (see docs/configuration.md).`
  );
}

export function contextWindow(modelId: string): number {
  return modelCapabilities(modelId).contextWindow;
}

/** The largest window of any catalogued model: the most history any turn could use. */
export function largestContextWindow(): number {
  const windows = [...Object.values(BUILT_IN), ...Object.values(configuredEntries())].map(
    (entry) => entry.contextWindow,
  );
  return Math.max(UNKNOWN_MODEL.contextWindow, ...windows);
}

/** Whether the model takes a file of this type as input (else it is only listed and readable). */
export function acceptsFile(modelId: string, mediaType: string): boolean {
  const { input } = modelCapabilities(modelId);
  if (mediaType === "application/pdf") return input.pdf;
  return mediaType.startsWith("image/") && input.image;
}

/**
 * USD for the tokens, or null when the usage or the model's price is unknown. Reasoning tokens
 * are part of the output count and priced with it; cached input at its own price when known.
 */
export function costUsd(modelId: string, usage: TokenUsage | null): number | null {
  const { prices } = modelCapabilities(modelId);
  if (!prices || !usage) return null;
  const cached = prices.cachedInputPerMillion === undefined ? 0 : (usage.cachedInputTokens ?? 0);
  const cost =
    ((usage.inputTokens - cached) * prices.inputPerMillion +
      cached * (prices.cachedInputPerMillion ?? 0) +
      usage.outputTokens * prices.outputPerMillion) /
    1_000_000;
  return Math.round(cost * 1e8) / 1e8;
}
