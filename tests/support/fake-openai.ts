// A fake OpenAI-compatible server (chat completions, streaming with tool calls and usage, or one
// JSON answer for a request that does not stream; and embeddings), the edge of the world for
// tests that drive the real @ai-sdk/openai provider through whole turns and jobs. Like OpenAI it
// refuses, with a 400 in OpenAI's error shape, a strict schema (a structured output's
// `response_format.json_schema` or a tool sent with `strict: true`) that breaks strict mode's
// rules, checked with the app's own rule module; tools without `strict` pass unchecked. Its
// embeddings are the offline embedding model's vectors, so they mean something;
// `embeddingLength` makes it answer with vectors of another length.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { offlineEmbedding } from "@/lib/memory/offline-embedding";
import { strictViolations } from "@/lib/models/strict-rules";

export type Plan =
  /** An HTTP error answer; `message` and `type` go into OpenAI's error body. */
  | { kind: "fail"; status: number; message?: string; type?: string }
  /** `usage: false` streams no usage chunk (a server that ignores include_usage); `delayMs`
   * waits between pieces of text (a slow stream to stop mid-answer). */
  | { kind: "text"; text: string; usage?: boolean; delayMs?: number }
  /** Closes the connection without an answer: a network failure. */
  | { kind: "reset" }
  | { kind: "tool"; name: string; args: Record<string, unknown> }
  | { kind: "text-then-drop"; text: string }
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
  model: string;
  messages: Array<{ role: string; content: unknown }>;
  response_format?: ResponseFormat;
  tools?: SentTool[];
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
  plans: Plan[];
  requests: RecordedRequest[];
  embeddingRequests: EmbeddingRequest[];
  /** Answers embeddings with vectors of this length instead of the requested one. */
  embeddingLength: number | null;
  /** Fails every embeddings request with this HTTP status. */
  embeddingFailure: number | null;
  /** Streaming requests that did not ask for usage (`stream_options.include_usage: true`). */
  violations: string[];
  fallbackPlan: Plan;
  close(): Promise<void>;
};

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const fake: Omit<FakeOpenAI, "url" | "close"> = {
    plans: [],
    requests: [],
    embeddingRequests: [],
    embeddingLength: null,
    embeddingFailure: null,
    violations: [],
    fallbackPlan: { kind: "text", text: "Hello from the fake model." },
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      if (req.url?.endsWith("/embeddings") === true) {
        answerEmbeddings(body, res);
        return;
      }
      if (req.url?.endsWith("/chat/completions") !== true) {
        res.writeHead(404).end();
        return;
      }
      const request = JSON.parse(body) as RecordedRequest & {
        stream?: boolean;
        stream_options?: { include_usage?: boolean };
      };
      fake.requests.push({
        model: request.model,
        messages: request.messages,
        response_format: request.response_format,
        tools: request.tools,
      });
      const refusals = strictRefusals(request);
      if (refusals.length > 0) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: {
              message: refusals.join("\n"),
              type: "invalid_request_error",
              param: request.response_format ? "response_format" : "tools",
              code: "invalid_json_schema",
            },
          }),
        );
        return;
      }
      // Without include_usage a compatible server streams no usage: every turn would be unknown.
      if (request.stream && request.stream_options?.include_usage !== true) {
        fake.violations.push(`streaming request for ${request.model} without include_usage`);
      }
      const plan = fake.plans.shift() ?? fake.fallbackPlan;
      if (plan.kind === "fail") {
        res.writeHead(plan.status, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: {
              message: plan.message ?? `fake failure ${plan.status}`,
              type: plan.type ?? "server_error",
            },
          }),
        );
        return;
      }
      if (plan.kind === "reset") {
        res.socket?.destroy();
        return;
      }
      if (plan.kind === "silent") return; // never answers: the client's timeout must fire
      if (!request.stream) {
        answerAtOnce(plan);
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
      const chunk = (delta: unknown, finish: string | null = null) =>
        send({
          id: "chatcmpl-fake",
          object: "chat.completion.chunk",
          created: 1,
          model: request.model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
      if (plan.kind === "tool") {
        chunk({
          role: "assistant",
          tool_calls: [
            {
              index: 0,
              id: `call_${fake.requests.length}`,
              type: "function",
              function: { name: plan.name, arguments: JSON.stringify(plan.args) },
            },
          ],
        });
        chunk({}, "tool_calls");
      } else {
        const pieces = plan.text.match(/.{1,12}/gs) ?? [];
        chunk({ role: "assistant", content: "" });
        if (plan.kind === "text" && plan.delayMs) {
          void streamSlowly(pieces, plan.delayMs, plan.usage !== false);
          return;
        }
        for (const piece of pieces) chunk({ content: piece });
        if (plan.kind === "text-then-drop") {
          // OpenAI reports a failure mid-stream as an error payload on the stream.
          res.end(
            `data: ${JSON.stringify({ error: { message: "upstream overloaded", type: "server_error" } })}\n\n`,
          );
          return;
        }
        chunk({}, "stop");
        if (plan.kind === "text" && plan.usage === false) {
          res.end("data: [DONE]\n\n");
          return;
        }
      }
      sendUsage();
      res.end("data: [DONE]\n\n");

      async function streamSlowly(pieces: string[], delayMs: number, withUsage: boolean) {
        for (const piece of pieces) {
          if (res.destroyed) return; // the client stopped
          chunk({ content: piece });
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
        if (res.destroyed) return;
        chunk({}, "stop");
        if (withUsage) sendUsage();
        res.end("data: [DONE]\n\n");
      }

      function answerAtOnce(plan: Exclude<Plan, { kind: "fail" | "reset" | "silent" }>) {
        const message =
          plan.kind === "tool"
            ? {
                role: "assistant",
                content: null,
                tool_calls: [
                  {
                    id: `call_${fake.requests.length}`,
                    type: "function",
                    function: { name: plan.name, arguments: JSON.stringify(plan.args) },
                  },
                ],
              }
            : { role: "assistant", content: plan.text };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "chatcmpl-fake",
            object: "chat.completion",
            created: 1,
            model: request.model,
            choices: [
              {
                index: 0,
                message,
                finish_reason: plan.kind === "tool" ? "tool_calls" : "stop",
              },
            ],
            usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
          }),
        );
      }

      function sendUsage() {
        send({
          id: "chatcmpl-fake",
          object: "chat.completion.chunk",
          created: 1,
          model: request.model,
          choices: [],
          usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
        });
      }
    });
  });
  function answerEmbeddings(body: string, res: import("node:http").ServerResponse) {
    const request = JSON.parse(body) as {
      model: string;
      input: string | string[];
      dimensions?: number;
    };
    const input = Array.isArray(request.input) ? request.input : [request.input];
    fake.embeddingRequests.push({ model: request.model, input, dimensions: request.dimensions });
    if (fake.embeddingFailure) {
      res.writeHead(fake.embeddingFailure, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { message: "fake embedding failure", type: "server_error" } }),
      );
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
  return {
    ...fake,
    get plans() {
      return fake.plans;
    },
    set plans(value) {
      fake.plans = value;
    },
    get fallbackPlan() {
      return fake.fallbackPlan;
    },
    set fallbackPlan(value) {
      fake.fallbackPlan = value;
    },
    get embeddingLength() {
      return fake.embeddingLength;
    },
    set embeddingLength(value) {
      fake.embeddingLength = value;
    },
    get embeddingFailure() {
      return fake.embeddingFailure;
    },
    set embeddingFailure(value) {
      fake.embeddingFailure = value;
    },
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
