// The model check: a handful of tiny calls to each configured model (every reasoning profile's,
// the fallback, the embedding model) that show whether a server fits the app: stream a sentence,
// make one tool call, fill one structured output, embed one text. Each call goes as a turn's would
// (the catalogue's API and structured-output mode) but once, without retries or the fallback, so
// a failure shows as the server answered it. The result is a
// table (what worked, each failure's status and message, and what the model catalogue assumes
// for the model); nothing of it is kept. `npm run models:check` prints it; the admin console's
// Models tab shows it.
import "server-only";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { APICallError, isStepCount, Output, tool } from "ai";
import { z } from "zod";
import type { ReasoningProfile } from "@/lib/config";
import { embedTexts, getEmbedder } from "@/lib/memory/embedding";
import { generateModelText, streamModelText } from "@/lib/models/calls";
import { CATALOGUE_VARIABLE, modelCapabilities } from "@/lib/models/catalogue";
import { loadModelConfig } from "@/lib/models/model-config";
import { providerMessage } from "@/lib/models/provider-errors";
import { apiOf, bareModel, resolveModel, usingOfflineModel } from "@/lib/models/registry";
import { strictSchema } from "@/lib/models/strict-schema";

export type CheckName = "stream" | "tool" | "structured" | "embedding";

export type CheckResult = {
  check: CheckName;
  ok: boolean;
  ms: number;
  /** What came back (a few words), or why it failed. */
  detail: string;
  /** The provider's HTTP status of a failure, when it answered with one. */
  status: number | null;
};

export type ModelCheckRow = {
  /** Which configured role the model plays: fast, balanced, deep, fallback, embedding. */
  roles: string[];
  modelId: string;
  /** What the catalogue assumes for the model, in a few words (or that it does not know it). */
  assumes: string;
  results: CheckResult[];
};

export type ModelCheckReport = { provider: "offline" | "openai"; rows: ModelCheckRow[] };

/** What the app assumes of a model: its catalogue entry, or the defaults an unknown one gets. */
export function catalogueAssumptions(modelId: string): string {
  const info = modelCapabilities(modelId);
  const files = [info.input.image && "images", info.input.pdf && "PDF"].filter(Boolean);
  const price = info.prices
    ? `$${info.prices.inputPerMillion}/$${info.prices.outputPerMillion} per M in/out`
    : "unknown price";
  const reasoning = info.reasoning
    ? `reasoning ${info.reasoning.efforts.join("/")}`
    : "no reasoning";
  return [
    ...(info.known ? [] : [`not in the catalogue (set it in ${CATALOGUE_VARIABLE})`]),
    `${apiOf(info, loadModelConfig())} API`,
    `window ${info.contextWindow.toLocaleString("en-US")}`,
    `files: ${files.length ? files.join(", ") : "none"}`,
    `structured output ${info.structuredOutput}`,
    reasoning,
    price,
  ].join(", ");
}

const PROFILES: readonly ReasoningProfile[] = ["fast", "balanced", "deep"];
const CALL_TIMEOUT_MS = 60_000;

async function timed(
  check: CheckName,
  run: (signal: AbortSignal) => Promise<string>,
): Promise<CheckResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const detail = await run(AbortSignal.timeout(CALL_TIMEOUT_MS));
    return { check, ok: true, ms: ms(), detail, status: null };
  } catch (error) {
    const status = APICallError.isInstance(error) ? (error.statusCode ?? null) : null;
    const message =
      providerMessage(error) ?? (error instanceof Error ? error.message : String(error));
    return { check, ok: false, ms: ms(), detail: message.slice(0, 300), status };
  }
}

const short = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 80);

// Declared once, like the app's own tools: strict, with a described parameter.
const weatherTool = tool({
  description: "Returns the weather in a city. Use it when asked about the weather.",
  strict: true,
  inputSchema: strictSchema(z.object({ city: z.string().describe('The city, e.g. "Paris".') })),
  execute: async ({ city }) => ({ city, sky: "clear", celsius: 21 }),
});
const answerSchema = strictSchema(
  z.object({ city: z.string(), country: z.string(), population: z.number().nullable() }),
);

async function chatChecks(model: LanguageModelV4): Promise<CheckResult[]> {
  return [
    await timed("stream", async (abortSignal) => {
      const result = streamModelText({
        call: "model-check",
        model,
        prompt: "Say hello in one short sentence.",
        abortSignal,
        maxRetries: 0,
        onError: () => {}, // the error part below reports it
      });
      let text = "";
      for await (const part of result.fullStream) {
        if (part.type === "text-delta") text += part.text;
        if (part.type === "error") throw part.error;
      }
      if (!text.trim()) throw new Error("The stream ended without text.");
      return short(text);
    }),
    await timed("tool", async (abortSignal) => {
      const result = await generateModelText({
        call: "model-check",
        model,
        prompt: "What is the weather in Paris? Use the tool.",
        tools: { get_weather: weatherTool },
        toolChoice: "required",
        stopWhen: isStepCount(1),
        abortSignal,
        maxRetries: 0,
      });
      const call = result.toolCalls[0];
      if (!call) throw new Error("The model answered without calling the tool.");
      return `${call.toolName}(${short(JSON.stringify(call.input))})`;
    }),
    await timed("structured", async (abortSignal) => {
      const result = await generateModelText({
        call: "model-check",
        model,
        prompt: "Name the capital of France as JSON: its city, country and population.",
        output: Output.object({ schema: answerSchema }),
        abortSignal,
        maxRetries: 0,
      });
      return short(JSON.stringify(result.output));
    }),
  ];
}

export async function checkModels(): Promise<ModelCheckReport> {
  const offline = usingOfflineModel();
  const settings = loadModelConfig();
  const byModel = new Map<string, { roles: string[]; model: () => Promise<LanguageModelV4> }>();
  for (const profile of PROFILES) {
    const resolved = await resolveModel(profile);
    const entry = byModel.get(resolved.modelId) ?? {
      roles: [],
      // The offline model has no server to fail: the app's own wrapper around it is the model.
      model: async () => (offline ? resolved.model : bareModel(resolved.modelId, profile)),
    };
    entry.roles.push(profile);
    byModel.set(resolved.modelId, entry);
  }
  const fallbackId = offline ? undefined : settings.OPENAI_FALLBACK_MODEL;
  if (fallbackId) {
    const entry = byModel.get(fallbackId) ?? {
      roles: [],
      model: () => bareModel(fallbackId, "balanced"),
    };
    entry.roles.push("fallback");
    byModel.set(fallbackId, entry);
  }
  const rows: ModelCheckRow[] = [];
  for (const [modelId, entry] of byModel) {
    rows.push({
      roles: entry.roles,
      modelId,
      assumes: catalogueAssumptions(modelId),
      results: await chatChecks(await entry.model()),
    });
  }
  const embeddingId = settings.OPENAI_EMBEDDING_MODEL;
  if (embeddingId && (await getEmbedder())) {
    rows.push({
      roles: ["embedding"],
      modelId: embeddingId,
      assumes: "vectors of 1536 dimensions (the memories table's column)",
      results: [
        await timed("embedding", async (abortSignal) => {
          const vectors = await embedTexts(["The lighthouse needs copper flashing."], {
            abortSignal,
          });
          return `${vectors?.[0]?.length ?? 0} dimensions`;
        }),
      ],
    });
  }
  return { provider: offline ? "offline" : "openai", rows };
}

/** The report as a plain-text table, for the terminal. */
export function formatModelCheck(report: ModelCheckReport): string {
  const lines = [`Provider: ${report.provider}`, ""];
  for (const row of report.rows) {
    lines.push(`${row.modelId} (${row.roles.join(", ")}): the catalogue assumes ${row.assumes}`);
    for (const result of row.results) {
      const status = result.status === null ? "" : ` [${result.status}]`;
      lines.push(
        `  ${result.check.padEnd(10)} ${result.ok ? "ok  " : "FAIL"} ${String(result.ms).padStart(6)} ms${status}  ${result.detail}`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}
