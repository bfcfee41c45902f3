// Structured output for models without strict json_schema (their catalogue entry's
// `structuredOutput`): a middleware turns a call's schema-bound JSON request into JSON mode with
// the schema in the instructions, or into one forced tool call whose arguments are the answer.
// The AI SDK validates what comes back against the zod schema either way; a failure gets one
// repair attempt (generateStructured), then fails with the model's id and the reason.
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4Middleware,
} from "@ai-sdk/provider";
import { JSONParseError, NoObjectGeneratedError, TypeValidationError } from "ai";
import type { CatalogueEntry } from "./catalogue";

const ANSWER_TOOL = "give_answer";

function withSchemaInstructions(
  params: LanguageModelV4CallOptions,
  schema: unknown,
): LanguageModelV4CallOptions["prompt"] {
  return [
    {
      role: "system",
      content:
        "Answer with one JSON object and nothing else. It must match this JSON schema:\n" +
        JSON.stringify(schema),
    },
    ...params.prompt,
  ];
}

/** The middleware for a mode other than json_schema; null when the model has strict schemas. */
export function structuredOutputMiddleware(
  mode: CatalogueEntry["structuredOutput"],
): LanguageModelV4Middleware | null {
  if (mode === "json_schema") return null;
  const schemaOf = (params: LanguageModelV4CallOptions) =>
    params.responseFormat?.type === "json" ? params.responseFormat.schema : undefined;
  return {
    specificationVersion: "v4",
    transformParams: async ({ params }) => {
      const schema = schemaOf(params);
      if (!schema) return params;
      if (mode === "json_object") {
        return {
          ...params,
          prompt: withSchemaInstructions(params, schema),
          responseFormat: { type: "json" },
        };
      }
      return {
        ...params,
        responseFormat: undefined,
        tools: [
          {
            type: "function",
            name: ANSWER_TOOL,
            description: "Give the answer as this tool's arguments.",
            inputSchema: schema,
          },
        ],
        toolChoice: { type: "tool", toolName: ANSWER_TOOL },
      };
    },
    // A forced tool call's arguments are the answer's text.
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      if (mode !== "tool" || params.toolChoice?.type !== "tool") return result;
      const content: LanguageModelV4Content[] = result.content.map((part) =>
        part.type === "tool-call" && part.toolName === ANSWER_TOOL
          ? { type: "text", text: part.input }
          : part,
      );
      return { ...result, content, finishReason: { ...result.finishReason, unified: "stop" } };
    },
  };
}

export class StructuredOutputError extends Error {
  constructor(
    readonly modelId: string,
    readonly reason: string,
  ) {
    super(`${modelId} gave no valid structured output: ${reason}`);
    this.name = "StructuredOutputError";
  }
}

/**
 * Runs `attempt`; when the model's answer does not parse or fails the schema, asks once more
 * with the validation error appended, then fails with the model's id and the reason.
 */
export async function generateStructured<T>(
  modelId: string,
  attempt: (repair: string | null) => Promise<T>,
): Promise<T> {
  let feedback: string;
  try {
    return await attempt(null);
  } catch (error) {
    if (!NoObjectGeneratedError.isInstance(error)) throw error;
    feedback = String((error.cause as Error | undefined)?.message ?? error.message).slice(0, 2_000);
  }
  try {
    return await attempt(
      `Your previous answer was not valid: ${feedback}\nAnswer again with JSON that matches the schema.`,
    );
  } catch (error) {
    if (!NoObjectGeneratedError.isInstance(error)) throw error;
    throw new StructuredOutputError(modelId, reasonOf(error));
  }
}

/** Why the answer failed, without any of its content: failures are listed to admins. */
export function reasonOf(error: NoObjectGeneratedError): string {
  const cause = error.cause;
  if (JSONParseError.isInstance(cause)) return "the answer is not valid JSON";
  if (TypeValidationError.isInstance(cause)) {
    const issues = (cause.cause as { issues?: Array<{ path?: unknown[]; message?: string }> })
      ?.issues;
    if (Array.isArray(issues) && issues.length > 0) {
      return `the answer does not match the schema (${issues
        .slice(0, 3)
        .map((issue) => `${(issue.path ?? []).join(".") || "the object"}: ${issue.message}`)
        .join("; ")})`;
    }
    return "the answer does not match the schema";
  }
  return "the model gave no structured answer";
}
