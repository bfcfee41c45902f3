/**
 * Decides what one offline-model call does: fail, answer a registered task, call tools (asked for
 * with `[tool:…]`, forced by the tool choice, or requested in words a domain registered), report
 * tool results, fill a structured-output schema, or answer in markdown; plus reasoning, pacing
 * and token usage. Owns the module-level `[fail:N]` counter (reset with `resetPlanState`).
 */
import type {
  APICallError,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4FunctionTool,
} from "@ai-sdk/provider";
import { asides, plainRequest, taskAnswer } from "./answers";
import {
  composeAnswer,
  composeLongAnswer,
  composeReasoning,
  composeWords,
  offlineNote,
  reportToolResults,
  unavailableToolAnswer,
} from "./compose";
import { readPrompt, safeStringify } from "./prompt";
import { createRng, hashHex, hashString } from "./random";
import { fillSchema } from "./schema-fill";
import { simulatedOutageError } from "./timing";
import { countInputTokens, countTextTokens, truncateToTokens } from "./tokens";
import { parseTriggers, stripTriggers } from "./triggers";

/** The model's settings; an undefined first-token delay is 0–20 ms, seeded from the prompt. */
export type PlanSettings = {
  modelId: string;
  chunkDelayMs: number;
  firstTokenDelayMs: number | undefined;
  retryAfterMs: number;
};

export type PlannedToolCall = { toolCallId: string; toolName: string; input: string };

export type OfflinePlan = {
  failure: APICallError | undefined;
  reasoning: string | undefined;
  text: string;
  toolCalls: PlannedToolCall[];
  finishReason: LanguageModelV4FinishReason;
  failAfterText: boolean;
  hang: boolean;
  chunkDelayMs: number;
  firstTokenDelayMs: number;
  responseId: string;
  inputTokens: number;
  /** Seed for chunk sizes. */
  seed: number;
};

// Calls per prompt for `[fail:N]`, the oldest forgotten past a thousand prompts.
const failCounts = new Map<string, number>();

export function resetPlanState(): void {
  failCounts.clear();
}

const REASONING_LEVELS = new Set(["minimal", "low", "medium", "high", "xhigh", "max"]);

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
  return simulatedOutageError({
    modelId: settings.modelId,
    message,
    retryAfterMs: settings.retryAfterMs,
    retryable: true,
  });
}

type Request = { name: string; argsJson: string | undefined };

/** The tool calls this call makes: its triggers, else a forced choice, else a plain request. */
function requestedTools(
  options: LanguageModelV4CallOptions,
  tools: LanguageModelV4FunctionTool[],
  triggered: Request[],
  plain: () => Request | null,
): Request[] {
  if (triggered.length > 0) return triggered;
  const choice = options.toolChoice;
  if (choice?.type === "tool") return [{ name: choice.toolName, argsJson: undefined }];
  if (choice?.type === "required" && tools[0])
    return [{ name: tools[0].name, argsJson: undefined }];
  const request = plain();
  // A plain request calls its tool only if the agent has it; otherwise the words are answered.
  return request && tools.some((tool) => tool.name === request.name) ? [request] : [];
}

export function buildPlan(
  options: LanguageModelV4CallOptions,
  settings: PlanSettings,
): OfflinePlan {
  const view = readPrompt(options.prompt);
  const answer = taskAnswer(options.providerOptions?.offline?.task);
  // A background task's transcript quotes the member; their triggers are not meant for it.
  const triggers = parseTriggers(answer ? "" : view.lastUserText);
  const promptKey = hashHex(view.messageDigests.join("\n\u0000"));
  const seed = hashString(triggers.cleanText);
  const rng = createRng(seed);
  const tools = (options.tools ?? []).filter(
    (tool): tool is LanguageModelV4FunctionTool => tool.type === "function",
  );
  const jsonFormat = options.responseFormat?.type === "json" ? options.responseFormat : undefined;
  const slow = triggers.slow;
  const plan: OfflinePlan = {
    failure: failureFor(triggers.fail, promptKey, settings),
    reasoning: undefined,
    text: "",
    toolCalls: [],
    finishReason: { unified: "stop", raw: "stop" },
    failAfterText: triggers.failAfterText,
    hang: triggers.hang,
    chunkDelayMs:
      slow === undefined
        ? settings.chunkDelayMs
        : slow.kind === "fixed"
          ? slow.ms
          : settings.chunkDelayMs * slow.factor,
    firstTokenDelayMs: settings.firstTokenDelayMs ?? seed % 21,
    responseId: `offline-${promptKey}`,
    inputTokens: countInputTokens({
      messageDigests: view.messageDigests,
      fileCount: view.fileCount,
      tools,
      extraTexts: jsonFormat?.schema ? [safeStringify(jsonFormat.schema)] : [],
    }),
    seed,
  };
  if (plan.failure) return plan;
  if (answer) {
    plan.text = answer({ prompt: stripTriggers(view.lastUserText), system: view.system });
    plan.firstTokenDelayMs += parseTriggers(view.lastUserText).taskDelayMs;
    return plan;
  }

  const afterTool = view.pendingToolResults;
  const toolsOff = options.toolChoice?.type === "none";
  if (triggers.reason || REASONING_LEVELS.has(options.reasoning ?? "")) {
    plan.reasoning = composeReasoning(
      triggers.cleanText,
      afterTool.map((result) => result.toolName),
    );
  }

  if (afterTool.length === 0 && !toolsOff) {
    const plain = () => plainRequest({ system: view.system, text: triggers.cleanText, tools });
    const requests = requestedTools(options, tools, triggers.tools, plain);
    plan.toolCalls = requests.flatMap((request, i) => {
      const tool =
        tools.find((t) => t.name === request.name) ??
        tools.find((t) => t.name.toLowerCase() === request.name.toLowerCase());
      if (!tool) return [];
      const input = request.argsJson ?? JSON.stringify(fillSchema(tool.inputSchema));
      return [{ toolCallId: `call_${promptKey}_${i}`, toolName: tool.name, input }];
    });
    if (plan.toolCalls.length > 0) {
      plan.finishReason = { unified: "tool-calls", raw: "tool_calls" };
      return plan;
    }
    if (requests.length > 0) {
      const available = tools.map((t) => t.name);
      plan.text = unavailableToolAnswer(
        requests.map((r) => r.name),
        available,
        false,
      );
      return plan;
    }
  } else if (toolsOff && triggers.tools.length > 0 && afterTool.length === 0 && !jsonFormat) {
    plan.text = unavailableToolAnswer(
      triggers.tools.map((r) => r.name),
      [],
      true,
    );
    return plan;
  }

  if (jsonFormat) {
    plan.text = JSON.stringify(fillSchema(jsonFormat.schema ?? { type: "object" }));
    return plan;
  }

  const note = view.offlineNoteGiven ? undefined : offlineNote(rng);
  const withNote = (body: string) => (note ? `${body}\n\n${note}` : body);
  if (afterTool.length > 0) plan.text = withNote(reportToolResults(afterTool, rng));
  else if (triggers.echo) plan.text = triggers.cleanText;
  else if (triggers.words !== undefined) {
    plan.text = composeWords(triggers.words, triggers.cleanText, rng);
  } else {
    const body = triggers.long
      ? composeLongAnswer(triggers.cleanText, rng)
      : composeAnswer(triggers.cleanText, rng);
    const opening = asides({
      system: view.system,
      text: triggers.cleanText,
      files: view.lastUserFiles,
    });
    plan.text = withNote([...opening, body].join("\n\n"));
  }
  applyLimits(plan, options);
  return plan;
}

/** Honours `stopSequences` and `maxOutputTokens` like a hosted model would. */
function applyLimits(plan: OfflinePlan, options: LanguageModelV4CallOptions): void {
  for (const stop of options.stopSequences ?? []) {
    const at = stop.length > 0 ? plan.text.indexOf(stop) : -1;
    if (at >= 0) plan.text = plan.text.slice(0, at);
  }
  const max = options.maxOutputTokens;
  if (max === undefined) return;
  const reasoningTokens = plan.reasoning ? countTextTokens(plan.reasoning) : 0;
  const { text, truncated } = truncateToTokens(plan.text, Math.max(0, max - reasoningTokens));
  if (truncated) {
    plan.text = text;
    plan.finishReason = { unified: "length", raw: "length" };
  }
}
