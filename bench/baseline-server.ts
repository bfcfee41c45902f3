// The bare baseline: a tiny Node HTTP server that streams the same offline model (same chunk
// delay, same persona, same user message) through streamText().toUIMessageStreamResponse(), with
// no auth, no database, no event log. `POST /chat` with the app's message body. Run as a child of
// bench/run.ts; prints "LISTENING <url>" and exits when its parent goes away.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { streamText } from "ai";
import { config } from "@/lib/config";
import { createOfflineModel } from "@/lib/models/offline-model";

const chunkDelayMs = Number(process.env.OFFLINE_MODEL_CHUNK_DELAY_MS ?? 15);

type Body = { message?: { parts?: Array<{ type: string; text?: string }> } };

const server = createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/chat") {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    let text = "";
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Body;
      text = (body.message?.parts ?? []).map((part) => part.text ?? "").join("");
    } catch {
      res.writeHead(400).end();
      return;
    }
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    const result = streamText({
      model: createOfflineModel({ chunkDelayMs }),
      instructions: config.agents.chief.persona,
      messages: [{ role: "user", content: text }],
      abortSignal: abort.signal,
    });
    const response = result.toUIMessageStreamResponse();
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    res.writeHead(response.status, headers);
    if (!response.body) {
      res.end();
      return;
    }
    Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)
      .on("error", () => res.destroy())
      .pipe(res);
  });
});

server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  console.log(`LISTENING http://127.0.0.1:${port}`);
});

// Never outlive the benchmark, even if it was killed with SIGKILL.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1_000).unref();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
