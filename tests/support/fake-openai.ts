// A fake OpenAI-compatible server (chat completions, streaming with tool calls and usage), the
// edge of the world for tests that drive the real @ai-sdk/openai provider through whole turns.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Plan =
  | { kind: "fail"; status: number }
  | { kind: "text"; text: string }
  | { kind: "tool"; name: string; args: Record<string, unknown> }
  | { kind: "text-then-drop"; text: string }
  | { kind: "silent" };

export type RecordedRequest = {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
};

export type FakeOpenAI = {
  url: string;
  plans: Plan[];
  requests: RecordedRequest[];
  fallbackPlan: Plan;
  close(): Promise<void>;
};

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const fake: Omit<FakeOpenAI, "url" | "close"> = {
    plans: [],
    requests: [],
    fallbackPlan: { kind: "text", text: "Hello from the fake model." },
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      if (req.url?.endsWith("/chat/completions") !== true) {
        res.writeHead(404).end();
        return;
      }
      const request = JSON.parse(body) as RecordedRequest;
      fake.requests.push({ model: request.model, messages: request.messages });
      const plan = fake.plans.shift() ?? fake.fallbackPlan;
      if (plan.kind === "fail") {
        res.writeHead(plan.status, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: { message: `fake failure ${plan.status}`, type: "server_error" },
          }),
        );
        return;
      }
      if (plan.kind === "silent") return; // never answers: the client's timeout must fire
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
        for (const piece of pieces) chunk({ content: piece });
        if (plan.kind === "text-then-drop") {
          // OpenAI reports a failure mid-stream as an error payload on the stream.
          res.end(
            `data: ${JSON.stringify({ error: { message: "upstream overloaded", type: "server_error" } })}\n\n`,
          );
          return;
        }
        chunk({}, "stop");
      }
      send({
        id: "chatcmpl-fake",
        object: "chat.completion.chunk",
        created: 1,
        model: request.model,
        choices: [],
        usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
      });
      res.end("data: [DONE]\n\n");
    });
  });
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
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
