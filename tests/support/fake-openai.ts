// A contract fake of the servers the app's model calls meet, the edge of the world for tests that
// drive the real @ai-sdk/openai provider through whole turns and jobs. One server, three
// profiles (`fake.profile`):
// - `chat` (the default): OpenAI's Chat Completions, streaming with tool calls, usage only when
//   the request asks for it (`stream_options.include_usage`);
// - `responses`: OpenAI's Responses API as it streams (`response.created`, output items, text,
//   function-call argument and reasoning summary deltas, refusals, `response.completed` with
//   usage), and Chat Completions beside it as OpenAI serves both;
// - `compatible`: an OpenAI-compatible server (Ollama, vLLM): Chat Completions only, `strict`
//   accepted and ignored, `response_format: json_schema` refused with a 400 and `json_object`
//   honoured, no reasoning, no usage chunk unless `compatibleUsage` is set, and a model it does
//   not serve answers 404.
// Each validates requests as its server would: strict mode's rules where `strict: true` is sent
// (with the app's own rule module), message and content-part shapes, known model names; and
// answers 400/401/404/429 (with `retry-after`)/500 and `context_length_exceeded` in OpenAI's
// error shape on cue (a `fail` plan). Its embeddings are the offline embedding model's vectors,
// so they mean something; `embeddingLength` makes it answer with vectors of another length.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { offlineEmbedding } from "@/lib/memory/offline-embedding";
import { BUILT_IN } from "@/lib/models/catalogue";
import { strictViolations } from "@/lib/models/strict-rules";

export type Profile = "responses" | "chat" | "compatible";

export type ToolCallPlan = { name: string; args: Record<string, unknown> | string };

export type Plan =
  /** An HTTP error answer; `message`, `type` and `code` go into OpenAI's error body. */
  | {
      kind: "fail";
      status: number;
      message?: string;
      type?: string;
      code?: string;
      /** Seconds, sent as the `retry-after` header (a 429's). */
      retryAfter?: number;
    }
  /** `usage: false` streams no usage chunk (a server that ignores include_usage); `delayMs`
   * waits between pieces of text (a slow stream to stop mid-answer); `reasoning` streams a
   * reasoning summary first (the Responses profile only). */
  | { kind: "text"; text: string; usage?: boolean; delayMs?: number; reasoning?: string }
  /** Closes the connection without an answer: a network failure. */
  | { kind: "reset" }
  /** One tool call; string `args` are sent as they are (malformed JSON, say); `reasoning` as
   * for text. */
  | ({ kind: "tool"; reasoning?: string } & ToolCallPlan)
  /** Several tool calls in one step (parallel tool calls). */
  | { kind: "tools"; calls: ToolCallPlan[] }
  /** The model declines: a refusal item (Responses) or `refusal` delta (Chat). */
  | { kind: "refusal"; text: string }
  | { kind: "text-then-drop"; text: string }
  /** The stream stops in the middle of a tool call's arguments. */
  | ({ kind: "tool-then-drop" } & ToolCallPlan)
  | { kind: "silent" };

export type SentTool = {
  type: string;
  function: { name: string; parameters?: unknown; strict?: boolean };
};

export type ResponseFormat = {
  type: string;
  json_schema?: { name?: string; schema?: unknown; strict?: boolean };
};

export type RecordedRequest = {
  api: "chat" | "responses";
  model: string;
  /** Chat's `messages`, or the Responses API's `input` items. */
  messages: Array<{ role?: string; type?: string; content?: unknown }>;
  /** The structured-output format in Chat's shape, whichever API carried it. */
  response_format?: ResponseFormat;
  /** The tools in Chat's shape, whichever API carried them. */
  tools?: SentTool[];
  /** What the request says of storage and reasoning (the Responses API's fields). */
  store?: boolean;
  reasoning?: { effort?: string; summary?: string };
  include?: string[];
  body: Record<string, unknown>;
};

/** What strict mode refuses in a request, as OpenAI words the start of it; empty when none. */
export function strictRefusals(
  request: Pick<RecordedRequest, "response_format" | "tools">,
): string[] {
  const found: string[] = [];
  const format = request.response_format?.json_schema;
  if (format?.strict === true) {
    for (const line of strictViolations(format.schema)) {
      found.push(`Invalid schema for response_format '${format.name ?? "response"}': ${line}`);
    }
  }
  for (const sent of request.tools ?? []) {
    if (sent.function.strict !== true) continue;
    for (const line of strictViolations(sent.function.parameters)) {
      found.push(`Invalid schema for function '${sent.function.name}': ${line}`);
    }
  }
  return found;
}

export type EmbeddingRequest = { model: string; input: string[]; dimensions?: number };

export type FakeOpenAI = {
  url: string;
  profile: Profile;
  /** The models the server serves (the compatible profile answers 404 for any other). */
  models: Set<string>;
  /** The compatible profile streams a usage chunk (some servers do when asked). */
  compatibleUsage: boolean;
  plans: Plan[];
  requests: RecordedRequest[];
  embeddingRequests: EmbeddingRequest[];
  /** Answers embeddings with vectors of this length instead of the requested one. */
  embeddingLength: number | null;
  /** Fails every embeddings request with this HTTP status. */
  embeddingFailure: number | null;
  /** Streaming chat requests that did not ask for usage (`stream_options.include_usage`). */
  violations: string[];
  fallbackPlan: Plan;
  /** Which requests take the next plan (all by default); the others get the fallback plan. */
  takesPlan: (request: RecordedRequest) => boolean;
  close(): Promise<void>;
};

export const USAGE = { input: 120, output: 30, reasoning: 12, cached: 20 };

/** What the compatible profile serves besides the catalogue's names: local models. */
const LOCAL_MODELS = ["llama3.1:8b", "qwen2.5:7b", "nomic-embed-text"];

type ChatBody = {
  model: string;
  messages?: Array<{
    role: string;
    content?: unknown;
    tool_call_id?: string;
    tool_calls?: unknown;
  }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: ResponseFormat;
  tools?: SentTool[];
};

type ResponsesBody = {
  model: string;
  input?: Array<Record<string, unknown>>;
  stream?: boolean;
  store?: boolean;
  include?: string[];
  reasoning?: { effort?: string; summary?: string };
  text?: { format?: { type: string; name?: string; schema?: unknown; strict?: boolean } };
  tools?: Array<{ type: string; name: string; parameters?: unknown; strict?: boolean }>;
};

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly type = "invalid_request_error",
  ) {
    super(message);
  }
}

const CHAT_ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);
const CHAT_PARTS = new Set(["text", "image_url", "file", "input_audio"]);

/** Chat Completions' own checks of the messages (roles, parts, tool results answering calls). */
function validateChatMessages(messages: ChatBody["messages"]): void {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new Refused(400, "'messages' must be a non-empty array.", "messages");
  }
  const called = new Set<string>();
  messages.forEach((message, index) => {
    if (!CHAT_ROLES.has(message.role)) {
      throw new Refused(400, `Invalid value: '${message.role}'.`, `messages[${index}].role`);
    }
    if (Array.isArray(message.content)) {
      for (const part of message.content as Array<{ type?: string }>) {
        if (!CHAT_PARTS.has(String(part.type))) {
          throw new Refused(
            400,
            `Invalid value: '${part.type}'. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'.`,
            `messages[${index}].content[0].type`,
          );
        }
      }
    }
    for (const call of (message.tool_calls as Array<{ id: string }> | undefined) ?? []) {
      called.add(call.id);
    }
    if (message.role === "tool" && !called.has(String(message.tool_call_id))) {
      throw new Refused(
        400,
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        `messages[${index}].role`,
      );
    }
  });
}

const INPUT_PARTS = new Set(["input_text", "input_image", "input_file", "output_text", "refusal"]);

/** The Responses API's checks of the input items (roles, parts, outputs answering calls). */
function validateResponsesInput(body: ResponsesBody): void {
  if (!Array.isArray(body.input) || body.input.length === 0) {
    throw new Refused(400, "'input' must be a non-empty array.", "input");
  }
  const called = new Set<string>();
  body.input.forEach((item, index) => {
    const type = item.type ?? "message";
    if (type === "item_reference" && body.store === false) {
      throw new Refused(
        404,
        `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false.`,
        "input",
      );
    }
    if (type === "function_call") called.add(String(item.call_id));
    if (type === "function_call_output" && !called.has(String(item.call_id))) {
      throw new Refused(
        400,
        `No tool call found for function call output with call_id ${String(item.call_id)}.`,
        "input",
      );
    }
    if (type === "message") {
      if (!CHAT_ROLES.has(String(item.role)) || item.role === "tool") {
        throw new Refused(400, `Invalid value: '${String(item.role)}'.`, `input[${index}].role`);
      }
      if (Array.isArray(item.content)) {
        for (const part of item.content as Array<{ type?: string }>) {
          if (!INPUT_PARTS.has(String(part.type))) {
            throw new Refused(400, `Invalid value: '${part.type}'.`, `input[${index}].content`);
          }
        }
      }
    }
  });
}

export async function startFakeOpenAI({
  profile = "chat",
}: {
  profile?: Profile;
} = {}): Promise<FakeOpenAI> {
  const fake: Omit<FakeOpenAI, "url" | "close"> = {
    profile,
    models: new Set([...Object.keys(BUILT_IN), ...LOCAL_MODELS]),
    compatibleUsage: false,
    plans: [],
    requests: [],
    embeddingRequests: [],
    embeddingLength: null,
    embeddingFailure: null,
    violations: [],
    fallbackPlan: { kind: "text", text: "Hello from the fake model." },
    takesPlan: () => true,
  };
  let sequence = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      try {
        if (
          req.headers.authorization !== undefined &&
          !/^Bearer \S+/.test(req.headers.authorization)
        ) {
          throw new Refused(401, "Incorrect API key provided.", null, "invalid_api_key");
        }
        if (req.url?.endsWith("/embeddings") === true) return answerEmbeddings(body, res);
        if (req.url?.endsWith("/chat/completions") === true)
          return answerChat(JSON.parse(body), res);
        if (req.url?.endsWith("/responses") === true && fake.profile !== "compatible") {
          return answerResponses(JSON.parse(body), res);
        }
        res.writeHead(404).end();
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        sendError(res, error.status, {
          message: error.message,
          type: error.type,
          param: error.param,
          code: error.code,
        });
      }
    });
  });

  function sendError(
    res: ServerResponse,
    status: number,
    error: { message: string; type: string; param?: string | null; code?: string | null },
    headers: Record<string, string> = {},
  ) {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify({ error: { param: null, code: null, ...error } }));
  }

  function checkModel(model: string) {
    if (fake.models.has(model)) return;
    throw new Refused(
      404,
      fake.profile === "compatible"
        ? `model "${model}" not found, try pulling it first`
        : `The model \`${model}\` does not exist or you do not have access to it.`,
      null,
      "model_not_found",
    );
  }

  /** A `fail` plan's answer, true when it was one (the caller stops there). */
  function failed(
    plan: Plan,
    res: ServerResponse,
  ): plan is Extract<Plan, { kind: "fail" | "reset" | "silent" }> {
    if (plan.kind === "fail") {
      const contextLength = plan.code === "context_length_exceeded";
      sendError(
        res,
        plan.status,
        {
          message:
            plan.message ??
            (contextLength
              ? "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages."
              : `fake failure ${plan.status}`),
          type:
            plan.type ??
            (plan.status === 429
              ? "rate_limit_exceeded"
              : plan.status < 500
                ? "invalid_request_error"
                : "server_error"),
          param: contextLength ? "messages" : null,
          code: plan.code ?? null,
        },
        plan.retryAfter === undefined ? {} : { "retry-after": String(plan.retryAfter) },
      );
      return true;
    }
    if (plan.kind === "reset") {
      res.socket?.destroy();
      return true;
    }
    return plan.kind === "silent"; // never answers: the client's timeout must fire
  }

  const nextPlan = (): Plan =>
    (fake.takesPlan(fake.requests.at(-1) as RecordedRequest) ? fake.plans.shift() : undefined) ??
    fake.fallbackPlan;
  const argsText = (call: ToolCallPlan) =>
    typeof call.args === "string" ? call.args : JSON.stringify(call.args);
  const callsOf = (plan: Plan): ToolCallPlan[] =>
    plan.kind === "tools" ? plan.calls : plan.kind === "tool" ? [plan] : [];

  function answerChat(request: ChatBody, res: ServerResponse) {
    const compatible = fake.profile === "compatible";
    fake.requests.push({
      api: "chat",
      model: request.model,
      messages: request.messages ?? [],
      response_format: request.response_format,
      tools: request.tools,
      body: request as unknown as Record<string, unknown>,
    });
    if (compatible) checkModel(request.model);
    validateChatMessages(request.messages);
    if (compatible && request.response_format?.type === "json_schema") {
      throw new Refused(
        400,
        "response_format type json_schema is not supported by this server",
        "response_format",
      );
    }
    // A compatible server accepts `strict` and ignores it; OpenAI enforces it.
    const refusals = compatible ? [] : strictRefusals(request);
    if (refusals.length > 0) {
      throw new Refused(
        400,
        refusals.join("\n"),
        request.response_format ? "response_format" : "tools",
        "invalid_json_schema",
      );
    }
    const askedUsage = request.stream_options?.include_usage === true;
    if (request.stream && !askedUsage) {
      fake.violations.push(`streaming request for ${request.model} without include_usage`);
    }
    const plan = nextPlan();
    if (failed(plan, res)) return;
    const id = `chatcmpl-${fake.requests.length}`;
    const callId = (index: number) => `call_${fake.requests.length}_${index}`;
    const usage = {
      prompt_tokens: USAGE.input,
      completion_tokens: USAGE.output,
      total_tokens: USAGE.input + USAGE.output,
    };
    if (!request.stream) {
      const calls = callsOf(plan);
      const text = "text" in plan ? plan.text : null;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id,
          object: "chat.completion",
          created: 1,
          model: request.model,
          choices: [
            {
              index: 0,
              message:
                calls.length > 0
                  ? {
                      role: "assistant",
                      content: null,
                      tool_calls: calls.map((call, index) => ({
                        id: callId(index),
                        type: "function",
                        function: { name: call.name, arguments: argsText(call) },
                      })),
                    }
                  : plan.kind === "refusal"
                    ? { role: "assistant", content: null, refusal: plan.text }
                    : { role: "assistant", content: text },
              finish_reason: calls.length > 0 ? "tool_calls" : "stop",
            },
          ],
          ...(compatible && !fake.compatibleUsage ? {} : { usage }),
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
    const chunk = (delta: unknown, finish: string | null = null) =>
      send({
        id,
        object: "chat.completion.chunk",
        created: 1,
        model: request.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    const sendsUsage = compatible ? fake.compatibleUsage : askedUsage;
    const end = (withUsage = true) => {
      if (withUsage && sendsUsage) {
        send({
          id,
          object: "chat.completion.chunk",
          created: 1,
          model: request.model,
          choices: [],
          usage,
        });
      }
      res.end("data: [DONE]\n\n");
    };
    if (plan.kind === "tool" || plan.kind === "tools" || plan.kind === "tool-then-drop") {
      const calls = plan.kind === "tool-then-drop" ? [plan] : callsOf(plan);
      chunk({ role: "assistant", content: null });
      calls.forEach((call, index) => {
        const args = argsText(call);
        const cut = plan.kind === "tool-then-drop" ? Math.ceil(args.length / 2) : args.length;
        chunk({
          tool_calls: [
            {
              index,
              id: callId(index),
              type: "function",
              function: { name: call.name, arguments: args.slice(0, Math.ceil(cut / 2)) },
            },
          ],
        });
        chunk({
          tool_calls: [{ index, function: { arguments: args.slice(Math.ceil(cut / 2), cut) } }],
        });
      });
      if (plan.kind === "tool-then-drop") {
        res.socket?.destroy();
        return;
      }
      chunk({}, "tool_calls");
      end();
      return;
    }
    if (plan.kind === "refusal") {
      chunk({ role: "assistant", content: null, refusal: "" });
      for (const piece of pieces(plan.text)) chunk({ refusal: piece });
      chunk({}, "stop");
      end();
      return;
    }
    chunk({ role: "assistant", content: "" });
    if (plan.kind === "text" && plan.delayMs) {
      void slowly(pieces(plan.text), plan.delayMs, res, (piece) => chunk({ content: piece })).then(
        (done) => {
          if (!done) return;
          chunk({}, "stop");
          end(plan.usage !== false);
        },
      );
      return;
    }
    for (const piece of pieces(plan.text)) chunk({ content: piece });
    if (plan.kind === "text-then-drop") {
      // OpenAI reports a failure mid-stream as an error payload on the stream.
      res.end(
        `data: ${JSON.stringify({ error: { message: "upstream overloaded", type: "server_error" } })}\n\n`,
      );
      return;
    }
    chunk({}, "stop");
    end(plan.usage !== false);
  }

  function answerResponses(request: ResponsesBody, res: ServerResponse) {
    const format = request.text?.format;
    fake.requests.push({
      api: "responses",
      model: request.model,
      messages: (request.input ?? []) as RecordedRequest["messages"],
      response_format:
        format && format.type !== "text"
          ? format.type === "json_schema"
            ? {
                type: "json_schema",
                json_schema: { name: format.name, schema: format.schema, strict: format.strict },
              }
            : { type: format.type }
          : undefined,
      tools: request.tools?.map((tool) => ({
        type: tool.type,
        function: { name: tool.name, parameters: tool.parameters, strict: tool.strict },
      })),
      store: request.store,
      reasoning: request.reasoning,
      include: request.include,
      body: request as unknown as Record<string, unknown>,
    });
    const recorded = fake.requests.at(-1) as RecordedRequest;
    checkModel(request.model);
    validateResponsesInput(request);
    const refusals = strictRefusals(recorded);
    if (refusals.length > 0) {
      throw new Refused(
        400,
        refusals.join("\n"),
        format ? "text.format" : "tools",
        "invalid_json_schema",
      );
    }
    const reasons = BUILT_IN[request.model]?.reasoning;
    if (request.reasoning?.effort && !reasons) {
      throw new Refused(
        400,
        `Unsupported parameter: 'reasoning.effort' is not supported with this model.`,
        "reasoning.effort",
        "unsupported_parameter",
      );
    }
    const plan = nextPlan();
    if (failed(plan, res)) return;
    const n = fake.requests.length;
    const responseId = `resp_${n}`;
    const usage = {
      input_tokens: USAGE.input,
      input_tokens_details: { cached_tokens: USAGE.cached },
      output_tokens: USAGE.output,
      output_tokens_details: { reasoning_tokens: reasons ? USAGE.reasoning : 0 },
      total_tokens: USAGE.input + USAGE.output,
    };
    const encrypted = request.include?.includes("reasoning.encrypted_content") ? `enc_${n}` : null;
    const reasoningText =
      (plan.kind === "text" || plan.kind === "tool") && request.reasoning
        ? plan.reasoning
        : undefined;
    const calls = plan.kind === "tool-then-drop" ? [plan] : callsOf(plan);
    const text = plan.kind === "text" || plan.kind === "text-then-drop" ? plan.text : null;

    if (!request.stream) {
      const output: unknown[] = [];
      if (reasoningText) {
        output.push({
          type: "reasoning",
          id: `rs_${n}`,
          encrypted_content: encrypted,
          summary: [{ type: "summary_text", text: reasoningText }],
        });
      }
      calls.forEach((call, index) => {
        output.push({
          type: "function_call",
          id: `fc_${n}_${index}`,
          call_id: `call_${n}_${index}`,
          name: call.name,
          arguments: argsText(call),
          status: "completed",
        });
      });
      if (text !== null || plan.kind === "refusal") {
        output.push({
          type: "message",
          role: "assistant",
          id: `msg_${n}`,
          status: "completed",
          content: [
            plan.kind === "refusal"
              ? { type: "refusal", refusal: plan.text }
              : { type: "output_text", text, annotations: [] },
          ],
        });
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: responseId,
          object: "response",
          created_at: 1,
          status: "completed",
          model: request.model,
          output,
          incomplete_details: null,
          usage,
        }),
      );
      return;
    }

    res.writeHead(200, { "content-type": "text/event-stream" });
    const send = (type: string, payload: Record<string, unknown>) => {
      sequence += 1;
      res.write(
        `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...payload })}\n\n`,
      );
    };
    const response = { id: responseId, object: "response", created_at: 1, model: request.model };
    send("response.created", { response: { ...response, status: "in_progress" } });
    let index = 0;
    if (reasoningText) {
      const item = { type: "reasoning", id: `rs_${n}`, encrypted_content: encrypted, summary: [] };
      send("response.output_item.added", { output_index: index, item });
      send("response.reasoning_summary_part.added", {
        item_id: item.id,
        output_index: index,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      });
      for (const piece of pieces(reasoningText)) {
        send("response.reasoning_summary_text.delta", {
          item_id: item.id,
          output_index: index,
          summary_index: 0,
          delta: piece,
        });
      }
      send("response.reasoning_summary_part.done", {
        item_id: item.id,
        output_index: index,
        summary_index: 0,
        part: { type: "summary_text", text: reasoningText },
      });
      send("response.output_item.done", {
        output_index: index,
        item: { ...item, summary: [{ type: "summary_text", text: reasoningText }] },
      });
      index += 1;
    }
    for (const [position, call] of calls.entries()) {
      const args = argsText(call);
      const item = {
        type: "function_call",
        id: `fc_${n}_${position}`,
        call_id: `call_${n}_${position}`,
        name: call.name,
        arguments: "",
        status: "in_progress",
      };
      send("response.output_item.added", { output_index: index, item });
      const cut = plan.kind === "tool-then-drop" ? Math.ceil(args.length / 2) : args.length;
      for (const piece of pieces(args.slice(0, cut))) {
        send("response.function_call_arguments.delta", {
          item_id: item.id,
          output_index: index,
          delta: piece,
        });
      }
      if (plan.kind === "tool-then-drop") {
        res.socket?.destroy();
        return;
      }
      send("response.function_call_arguments.done", {
        item_id: item.id,
        output_index: index,
        arguments: args,
      });
      send("response.output_item.done", {
        output_index: index,
        item: { ...item, arguments: args, status: "completed" },
      });
      index += 1;
    }
    const completed = () =>
      send("response.completed", {
        response: { ...response, status: "completed", incomplete_details: null, usage },
      });
    if (plan.kind === "refusal") {
      const item = {
        type: "message",
        id: `msg_${n}`,
        role: "assistant",
        status: "in_progress",
        content: [],
      };
      send("response.output_item.added", { output_index: index, item });
      for (const piece of pieces(plan.text)) {
        send("response.refusal.delta", {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          delta: piece,
        });
      }
      send("response.refusal.done", {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        refusal: plan.text,
      });
      send("response.output_item.done", {
        output_index: index,
        item: { ...item, status: "completed" },
      });
      completed();
      res.end();
      return;
    }
    if (text === null) {
      completed();
      res.end();
      return;
    }
    const item = {
      type: "message",
      id: `msg_${n}`,
      role: "assistant",
      status: "in_progress",
      content: [],
    };
    send("response.output_item.added", { output_index: index, item });
    send("response.content_part.added", {
      item_id: item.id,
      output_index: index,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    });
    const delta = (piece: string) =>
      send("response.output_text.delta", {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        delta: piece,
      });
    const finish = () => {
      send("response.output_text.done", {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        text,
      });
      send("response.output_item.done", {
        output_index: index,
        item: { ...item, status: "completed" },
      });
      completed();
      res.end();
    };
    if (plan.kind === "text" && plan.delayMs) {
      void slowly(pieces(text), plan.delayMs, res, delta).then((done) => done && finish());
      return;
    }
    for (const piece of pieces(text)) delta(piece);
    if (plan.kind === "text-then-drop") {
      send("error", { code: "server_error", message: "upstream overloaded", param: null });
      res.end();
      return;
    }
    finish();
  }

  function answerEmbeddings(body: string, res: ServerResponse) {
    const request = JSON.parse(body) as {
      model: string;
      input: string | string[];
      dimensions?: number;
    };
    const input = Array.isArray(request.input) ? request.input : [request.input];
    fake.embeddingRequests.push({ model: request.model, input, dimensions: request.dimensions });
    if (fake.profile === "compatible") checkModel(request.model);
    if (fake.embeddingFailure) {
      sendError(res, fake.embeddingFailure, {
        message: "fake embedding failure",
        type: "server_error",
      });
      return;
    }
    const length = fake.embeddingLength ?? request.dimensions ?? 1536;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        object: "list",
        model: request.model,
        data: input.map((text, index) => ({
          object: "embedding",
          index,
          embedding: offlineEmbedding(text, length),
        })),
        usage: { prompt_tokens: input.length * 8, total_tokens: input.length * 8 },
      }),
    );
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

function pieces(text: string): string[] {
  return text.match(/.{1,12}/gs) ?? [];
}

/** Sends each piece after a pause; false when the client went away first. */
async function slowly(
  parts: string[],
  delayMs: number,
  res: ServerResponse,
  sendPiece: (piece: string) => void,
): Promise<boolean> {
  for (const piece of parts) {
    if (res.destroyed) return false; // the client stopped
    sendPiece(piece);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  return !res.destroyed;
}
