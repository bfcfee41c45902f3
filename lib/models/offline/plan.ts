/**
 * Decides what one offline-model call does: fail, answer a registered task, call tools (asked for
 * with `[tool:…]`, forced by the tool choice, or requested in words a domain registered), report
 * tool results, fill a structured-output schema, or answer in markdown; plus reasoning, pacing
 * and input tokens. Owns the module-level `[fail:N]` counter (reset with `resetPlanState`).
 */
import type {
  APICallError,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4FunctionTool,
} from "@ai-sdk/provider";
import { asides, type OfflineMessage, plainRequest, taskAnswer } from "./answers";
import {
  composeAnswer,
  composeLongAnswer,
  composeReasoning,
  composeWords,
  offlineNote,
  reportToolResults,
  unavailableToolAnswer,
} from "./compose";
import { readPrompt } from "./prompt";
import { createRng, hashString } from "./random";
import { fillSchema } from "./schema-fill";
import { simulatedOutageError } from "./timing";
import { countInputTokens, countTextTokens, truncateToTokens } from "./tokens";
import { parseTriggers, stripTriggers } from "./triggers";

/** The model's settings (`createOfflineModel` takes any of them). */
export type PlanSettings = {
  /** Model id reported to the AI SDK. Default "offline-1". */
  modelId: string;
  /** Delay between streamed deltas in ms. Default 15. `[slow]` multiplies it by 10. */
  chunkDelayMs: number;
  /** Delay before the first token in ms. Default: 0–20 ms, seeded from the prompt. */
  firstTokenDelayMs?: number;
  /** `retry-after-ms` sent with simulated `[fail]` errors (the AI SDK honours it). Default 250. */
  retryAfterMs: number;
};

export type OfflinePlan = ReturnType<typeof buildPlan>;

// Calls per prompt for `[fail:N]`, the oldest forgotten past a thousand prompts.
const failCounts = new Map<string, number>();

/** Clears the `[fail:N]` call counters (for tests). */
export function resetPlanState(): void {
  failCounts.clear();
}

function failureFor(
  fail: "always" | number | undefined,
  key: string,
  settings: PlanSettings,
): APICallError | undefined {
  if (fail === undefined) return undefined;
  const calls = failCounts.get(key) ?? 0;
  if (fail !== "always" && calls >= fail) return undefined;
  failCounts.delete(key);
  const oldest = failCounts.size >= 1000 ? failCounts.keys().next().value : undefined;
  if (oldest !== undefined) failCounts.delete(oldest);
  failCounts.set(key, calls + 1);
  const message =
    fail === "always"
      ? "The offline model simulated a temporary outage ([fail] trigger). Remove the trigger to get an answer."
      : `The offline model simulated a temporary outage (${calls + 1} of ${fail}, [fail:${fail}] trigger). Retrying will succeed after ${fail} failure${fail === 1 ? "" : "s"}.`;
  return simulatedOutageError(settings.modelId, message, settings.retryAfterMs);
}

type Request = { name: string; argsJson: string | undefined };

/** The tool calls this call asks for: its triggers, else a forced choice, else a plain request. */
function requestedTools(
  options: LanguageModelV4CallOptions,
  triggered: Request[],
  message: OfflineMessage,
): Request[] {
  const { tools } = message;
  if (triggered.length > 0) return triggered;
  const choice = options.toolChoice;
  if (choice?.type === "tool") return [{ name: choice.toolName, argsJson: undefined }];
  if (choice?.type === "required" && tools[0])
    return [{ name: tools[0].name, argsJson: undefined }];
  const request = plainRequest(message);
  // A plain request calls its tool only if the agent has it; otherwise the words are answered.
  return request && tools.some((tool) => tool.name === request.name) ? [request] : [];
}

export function buildPlan(options: LanguageModelV4CallOptions, settings: PlanSettings) {
  const view = readPrompt(options.prompt);
  const answer = taskAnswer(options.providerOptions?.offline?.task);
  // A background task's transcript quotes the member; their triggers are not meant for it.
  const triggers = parseTriggers(answer ? "" : view.lastUserText);
  const promptKey = hashString(view.messageDigests.join("\n\u0000")).toString(16).padStart(8, "0");
  const seed = hashString(triggers.cleanText);
  const tools = (options.tools ?? []).filter(
    (tool): tool is LanguageModelV4FunctionTool => tool.type === "function",
  );
  const jsonFormat = options.responseFormat?.type === "json" ? options.responseFormat : undefined;
  const { slow, cleanText } = triggers;
  const plan = {
    /** Thrown before anything is emitted (`[fail]`, `[fail:N]`). */
    failure: failureFor(triggers.fail, promptKey, settings),
    /** Raised after some of the text (`[fail-after-text]`). */
    failAfterText: triggers.failAfterText
      ? simulatedOutageError(
          settings.modelId,
          "The offline model's stream was interrupted ([fail-after-text] trigger).",
        )
      : undefined,
    reasoning: undefined as string | undefined,
    text: "",
    toolCalls: [] as Array<{ toolCallId: string; toolName: string; input: string }>,
    finishReason: { unified: "stop", raw: "stop" } as LanguageModelV4FinishReason,
    hang: triggers.hang,
    chunkDelayMs: !slow
      ? settings.chunkDelayMs
      : slow.kind === "fixed"
        ? slow.ms
        : settings.chunkDelayMs * slow.factor,
    firstTokenDelayMs: settings.firstTokenDelayMs ?? seed % 21,
    responseId: `offline-${promptKey}`,
    inputTokens: countInputTokens({ ...view, tools, schema: jsonFormat?.schema }),
    /** Seed for chunk sizes. */
    seed,
  };
  if (plan.failure) return plan;
  if (answer) {
    plan.text = answer({ prompt: stripTriggers(view.lastUserText), system: view.system });
    plan.firstTokenDelayMs += parseTriggers(view.lastUserText).taskDelayMs;
    return plan;
  }

  const afterTool = view.pendingToolResults;
  if (triggers.reason) {
    plan.reasoning = composeReasoning(cleanText, afterTool);
  }
  const message = { system: view.system, text: cleanText, files: view.lastUserFiles, tools };
  if (afterTool.length === 0) {
    // With tools switched off a `[tool:…]` trigger finds none of them and says so.
    const toolsOff = options.toolChoice?.type === "none";
    const requests = toolsOff ? triggers.tools : requestedTools(options, triggers.tools, message);
    plan.toolCalls = requests.flatMap((request, i) => {
      const name = request.name.toLowerCase();
      const tool = toolsOff ? undefined : tools.find((t) => t.name.toLowerCase() === name);
      if (!tool) return [];
      const input = request.argsJson ?? JSON.stringify(fillSchema(tool.inputSchema));
      return [{ toolCallId: `call_${promptKey}_${i}`, toolName: tool.name, input }];
    });
    if (plan.toolCalls.length > 0) {
      plan.finishReason = { unified: "tool-calls", raw: "tool_calls" };
      return plan;
    }
    if (requests.length > 0 && !jsonFormat) {
      plan.text = unavailableToolAnswer(requests, toolsOff ? undefined : tools);
      return plan;
    }
  }

  if (jsonFormat) {
    plan.text = JSON.stringify(fillSchema(jsonFormat.schema ?? { type: "object" }));
    return plan;
  }

  const rng = createRng(seed);
  const note = view.offlineNoteGiven ? undefined : offlineNote(rng);
  const withNote = (body: string) => (note ? `${body}\n\n${note}` : body);
  if (afterTool.length > 0) plan.text = withNote(reportToolResults(afterTool, rng));
  else if (triggers.echo) plan.text = cleanText;
  else if (triggers.words !== undefined) plan.text = composeWords(triggers.words, cleanText, rng);
  else {
    const body = (triggers.long ? composeLongAnswer : composeAnswer)(cleanText, rng);
    plan.text = withNote([...asides(message), body].join("\n\n"));
  }
  // `maxOutputTokens` cuts the answer as a hosted model would.
  const max = options.maxOutputTokens;
  if (max !== undefined) {
    const room = Math.max(0, max - countTextTokens(plan.reasoning ?? ""));
    const { text, truncated } = truncateToTokens(plan.text, room);
    if (truncated) {
      plan.text = text;
      plan.finishReason = { unified: "length", raw: "length" };
    }
  }
  return plan;
}
