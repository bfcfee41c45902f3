/**
 * Decides what one offline-model call does: fail, call tools (asked for with `[tool:…]` or in plain
 * words, see ./context-requests), summarize tool results, emit JSON
 * for structured output, or answer in markdown — plus reasoning, pacing and token usage. Owns the
 * module-level `[fail:N]` counter (reset with `resetPlanState`).
 */

import type {
  APICallError,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4FunctionTool,
} from "@ai-sdk/provider";
import { describeAttached, listedUploads, mentionedUpload } from "./attachments";
import { compactionDelayMs } from "./compaction";
import { composeAnswer, composeLongAnswer } from "./compose-answer";
import {
  composeReasoning,
  composeWords,
  offlineNote,
  summarizeToolResults,
  unavailableToolAnswer,
} from "./compose-extras";
import { matchContextRequest } from "./context-requests";
import { createSampleContext, sampleJsonSchema } from "./json-schema-sample";
import { knowledgeLine } from "./knowledge";
import { readPrompt, safeStringify } from "./prompt";
import { createRng, hashHex, hashString } from "./random";
import { detectIntent } from "./request";
import { composeTask, offlineTaskOf } from "./tasks";
import { simulatedOutageError } from "./timing";
import { countInputTokens, countTextTokens, truncateToTokens } from "./tokens";
import { parseTriggers } from "./triggers";
import { makeTitle } from "./words";

export interface PlanSettings {
  modelId: string;
  chunkDelayMs: number;
  /** Undefined: 0–20 ms, seeded from the prompt. */
  firstTokenDelayMs: number | undefined;
  retryAfterMs: number;
}

export interface PlannedToolCall {
  toolCallId: string;
  toolName: string;
  input: string;
}

export interface OfflinePlan {
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
}

const FAIL_COUNTER_LIMIT = 1000;
const failCounts = new Map<string, number>();

export function resetPlanState(): void {
  failCounts.clear();
}

const REASONING_LEVELS = new Set(["minimal", "low", "medium", "high", "xhigh", "max"]);
const TITLE_TASK = /\btitle\b/i;
const TITLE_VERB = /\b(generate|create|write|suggest|make|produce|give)\b/i;

function failureFor(
  fail: "always" | number | undefined,
  key: string,
  settings: PlanSettings,
): APICallError | undefined {
  if (fail === undefined) return undefined;
  const calls = failCounts.get(key) ?? 0;
  if (fail !== "always" && calls >= fail) return undefined;
  failCounts.delete(key);
  if (failCounts.size >= FAIL_COUNTER_LIMIT) {
    const oldest = failCounts.keys().next();
    if (!oldest.done) failCounts.delete(oldest.value);
  }
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

function functionTools(options: LanguageModelV4CallOptions): LanguageModelV4FunctionTool[] {
  return (options.tools ?? []).filter(
    (tool): tool is LanguageModelV4FunctionTool => tool.type === "function",
  );
}

/**
 * Whether `tool` serves a plain request: a consultation only when the tool names the specialist
 * asked for ("ask the team whether…" is a question, not a consultation).
 */
function offers(
  tool: LanguageModelV4FunctionTool,
  request: { name: string; argsJson: string },
): boolean {
  if (tool.name !== request.name) return false;
  if (request.name !== "consult_specialist") return true;
  const { specialist } = JSON.parse(request.argsJson) as { specialist?: string };
  const name = specialist?.trim().toLowerCase();
  // The tool's description lists the specialists in parentheses.
  const listed = /\(([^)]*)\)/.exec(tool.description ?? "")?.[1] ?? "";
  const names = listed.split(",").map((entry) => entry.trim().toLowerCase());
  return !!name && names.includes(name);
}

/** A message that names an attached document asks for it to be read (read_attachment). */
function attachmentRequest(
  view: { system: string },
  text: string,
): { name: string; argsJson: string } | null {
  const upload = mentionedUpload(text, listedUploads(view.system));
  return upload
    ? { name: "read_attachment", argsJson: JSON.stringify({ fileId: upload.id }) }
    : null;
}

export function buildPlan(
  options: LanguageModelV4CallOptions,
  settings: PlanSettings,
): OfflinePlan {
  const view = readPrompt(options.prompt);
  // A background task's transcript quotes the member; their triggers are not meant for it.
  const task = offlineTaskOf(options);
  const triggers = parseTriggers(task ? "" : view.lastUserText);
  const promptKey = hashHex(view.messageDigests.join("\n\u0000"));
  const seed = hashString(triggers.cleanText);
  const rng = createRng(seed);
  const tools = functionTools(options);
  const jsonFormat = options.responseFormat?.type === "json" ? options.responseFormat : undefined;

  const inputTokens = countInputTokens({
    messageDigests: view.messageDigests,
    fileCount: view.fileCount,
    tools,
    extraTexts: jsonFormat?.schema ? [safeStringify(jsonFormat.schema)] : [],
  });

  const slow = triggers.slow;
  const chunkDelayMs =
    slow === undefined
      ? settings.chunkDelayMs
      : slow.kind === "fixed"
        ? slow.ms
        : settings.chunkDelayMs * slow.factor;
  const plan: OfflinePlan = {
    failure: failureFor(triggers.fail, promptKey, settings),
    reasoning: undefined,
    text: "",
    toolCalls: [],
    finishReason: { unified: "stop", raw: "stop" },
    failAfterText: triggers.failAfterText,
    hang: triggers.hang,
    chunkDelayMs,
    firstTokenDelayMs: settings.firstTokenDelayMs ?? seed % 21,
    responseId: `offline-${promptKey}`,
    inputTokens,
    seed,
  };
  if (plan.failure) return plan;
  if (task) {
    plan.text = composeTask(task, view.lastUserText);
    if (task === "compaction") plan.firstTokenDelayMs += compactionDelayMs(view.lastUserText);
    return plan;
  }

  const afterTool = view.pendingToolResults;
  const toolsDisabled = options.toolChoice?.type === "none";
  const context = [triggers.cleanText, ...afterTool.map((r) => safeStringify(r.output))].join("\n");
  const wantsReasoning = triggers.reason || REASONING_LEVELS.has(options.reasoning ?? "");
  if (wantsReasoning) {
    plan.reasoning = composeReasoning(triggers.cleanText, {
      afterTool: afterTool.map((r) => r.toolName),
      wantsCode: detectIntent(triggers.cleanText) === "code",
    });
  }

  // 1. Tool calls: explicit triggers, or a tool choice that forces one.
  if (afterTool.length === 0 && !toolsDisabled) {
    const forced = options.toolChoice?.type === "tool" ? options.toolChoice.toolName : undefined;
    // A plain request ("record the decision: …") calls its tool only if the agent has it.
    const plain =
      triggers.tools.length === 0
        ? (matchContextRequest(triggers.cleanText) ?? attachmentRequest(view, triggers.cleanText))
        : null;
    const requests =
      triggers.tools.length > 0
        ? triggers.tools
        : forced !== undefined || (options.toolChoice?.type === "required" && tools[0])
          ? [{ name: forced ?? tools[0]?.name ?? "", argsJson: undefined }]
          : plain && tools.some((tool) => offers(tool, plain))
            ? [plain]
            : [];
    const calls = requests.flatMap((request, i) => {
      const tool =
        tools.find((t) => t.name === request.name) ??
        tools.find((t) => t.name.toLowerCase() === request.name.toLowerCase());
      if (!tool) return [];
      const input =
        request.argsJson ??
        JSON.stringify(
          sampleJsonSchema(tool.inputSchema, createSampleContext(triggers.cleanText, seed + i)),
        );
      return [{ toolCallId: `call_${promptKey}_${i}`, toolName: tool.name, input }];
    });
    if (calls.length > 0) {
      plan.toolCalls = calls;
      plan.finishReason = { unified: "tool-calls", raw: "tool_calls" };
      return plan;
    }
    if (requests.length > 0) {
      plan.text = unavailableToolAnswer(
        requests.map((r) => r.name),
        tools.map((t) => t.name),
        false,
      );
      return plan;
    }
  } else if (toolsDisabled && triggers.tools.length > 0 && afterTool.length === 0 && !jsonFormat) {
    plan.text = unavailableToolAnswer(
      triggers.tools.map((r) => r.name),
      [],
      true,
    );
    return plan;
  }

  // 2. Structured output.
  if (jsonFormat) {
    const schema = jsonFormat.schema ?? {
      type: "object",
      properties: {
        title: { type: "string" },
        summary: { type: "string" },
        keywords: { type: "array", items: { type: "string" } },
      },
      required: ["title", "summary", "keywords"],
    };
    plan.text = JSON.stringify(sampleJsonSchema(schema, createSampleContext(context, seed)));
    return plan;
  }

  // 3. Text.
  const note = view.offlineNoteGiven ? undefined : offlineNote(rng);
  const withNote = (body: string) => (note ? `${body}\n\n${note}` : body);
  const answerInput = { text: triggers.cleanText, previousUserTexts: view.previousUserTexts, rng };
  const titleTask =
    view.system.length > 0 &&
    view.system.length <= 600 &&
    TITLE_TASK.test(view.system) &&
    TITLE_VERB.test(view.system);
  if (afterTool.length > 0) plan.text = withNote(summarizeToolResults(afterTool, rng));
  else if (triggers.echo) plan.text = triggers.cleanText;
  else if (triggers.words !== undefined)
    plan.text = composeWords(triggers.words, triggers.cleanText, rng);
  else if (titleTask) plan.text = makeTitle(triggers.cleanText);
  else {
    const body = triggers.long ? composeLongAnswer(answerInput) : composeAnswer(answerInput);
    const known = knowledgeLine(view.system, triggers.cleanText);
    const attached = view.lastUserFiles.length
      ? describeAttached(view.lastUserFiles, listedUploads(view.system))
      : undefined;
    plan.text = withNote([attached, known, body].filter(Boolean).join("\n\n"));
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
  const budget = Math.max(0, max - reasoningTokens);
  const { text, truncated } = truncateToTokens(plan.text, budget);
  if (truncated) {
    plan.text = text;
    plan.finishReason = { unified: "length", raw: "length" };
  }
}
