// OpenTelemetry's real export path: a server process exporting over OTLP/HTTP (as
// OTEL_EXPORTER_OTLP_ENDPOINT configures it) to a receiver on loopback that keeps every byte it
// is sent. A member's words (in a message, in the title made of it, in a tool call's arguments,
// in a specialist's question, in what the learning jobs read) reach no exported byte through
// whole turns and their post-turn jobs; with WORKSTREAMS_OTEL_RECORD_CONTENT=1 they do, on the
// spans of each of those calls.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChildServer } from "../support/child-server";
import { type SignedUpUser, signUp } from "../support/http-client";
import { serverProcesses } from "../support/server-processes";
import { readSse } from "../support/sse";
import { createGroup, sendTo, waitFor } from "./workstreams-support/helpers";

// A proper noun: the offline model puts it first in the title it makes of the message.
const MARKER = "Quokkafjord";

/** The AI SDK's spans of each model call the app makes (its agent span is named by function). */
const MODEL_CALL_SPANS = [
  "invoke_agent workstreams.turn",
  "invoke_agent workstreams.title",
  "invoke_agent workstreams.activity",
  "invoke_agent workstreams.memory-facts",
  "invoke_agent workstreams.skills",
  "invoke_agent workstreams.specialist",
  "execute_tool update_workstream_state",
];

type OtlpValue = { stringValue?: string } & Record<string, unknown>;
type OtlpSpan = { name: string; attributes?: Array<{ key: string; value: OtlpValue }> };
type OtlpBody = { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }> };

/** An OTLP/HTTP traces receiver on loopback: every request's body, decompressed. */
class Receiver {
  readonly bodies: string[] = [];
  lastAt = 0;
  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on("request", (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const raw = Buffer.concat(chunks);
        const bytes = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
        if (req.url === "/v1/traces") {
          receiver.bodies.push(bytes.toString("utf8"));
          receiver.lastAt = Date.now();
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  spans(): OtlpSpan[] {
    return this.bodies.flatMap((body) =>
      ((JSON.parse(body) as OtlpBody).resourceSpans ?? []).flatMap((resource) =>
        (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []),
      ),
    );
  }

  /** Waits until nothing has arrived for a while: the batches of everything that ended. */
  async settled(quietMs = 1_500): Promise<void> {
    await waitFor(
      async () => this.bodies.length > 0 && Date.now() - this.lastAt > quietMs,
      "the exported spans to settle",
      30_000,
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** How long the jobs may take on a busy machine. */
const JOBS_MS = 60_000;

const { start } = serverProcesses();
let receiver: Receiver;

beforeAll(async () => {
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver?.close();
});

async function turn(user: SignedUpUser, workstreamId: string, text: string): Promise<void> {
  const response = await sendTo(user.client, workstreamId, text);
  expect(response.status).toBe(200);
  expect((await readSse(response)).done).toBe(true);
}

/**
 * A new member's onboarding turn (a fact about them, a tool call), a procedure in a group and a
 * consultation, each followed by its jobs (title, activity line, fact and skill extraction).
 */
async function memberConversation(server: ChildServer): Promise<void> {
  const member = await signUp(server.url, "Telemetry Member");
  const onboarding = await member.client.json<{ state: string }>("/api/onboarding", {
    method: "POST",
  });
  expect(onboarding.body.state).toBe("onboarding");
  const chief = await member.client.json<{ id: string }>("/api/workstreams", {
    method: "POST",
    json: { mode: "direct", agentId: "chief" },
  });
  await turn(
    member,
    chief.body.id,
    `I restore the ${MARKER} lighthouse for the harbor trust. [tool:update_workstream_state:{"risks":{"add":[{"text":"${MARKER} glazing arrives late"}]}}]`,
  );
  const group = await createGroup(member.client);
  await turn(
    member,
    group.id,
    `Here is how to release the ${MARKER} app:\n1. Bump the version in the manifest\n2. Run the store checks\n3. Upload the build to the beta track`,
  );
  await turn(member, group.id, `ask the Writer: draft a one-line ${MARKER} launch note`);

  // The jobs ran: the title made of the message, the facts and the procedure learned.
  await waitFor(
    async () => {
      const info = await member.client.json<{ title: string }>(`/api/workstreams/${group.id}`);
      return info.body.title.includes(MARKER);
    },
    "the title",
    JOBS_MS,
  );
  await waitFor(
    async () => {
      const list = await member.client.json<{ memories: unknown[] }>("/api/memories");
      return list.body.memories.length > 0;
    },
    "the learned facts",
    JOBS_MS,
  );
  await waitFor(
    async () => {
      const list = await member.client.json<{ skills: unknown[] }>("/api/skills");
      return list.body.skills.length > 0;
    },
    "the learned skill",
    JOBS_MS,
  );
  await waitFor(
    async () => {
      const list = await member.client.json<{ activity: unknown[] }>("/api/activity");
      return list.body.activity.length >= 2;
    },
    "the activity lines",
    JOBS_MS,
  );
  await receiver.settled();
}

const exportEnv = (extra: Record<string, string> = {}) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_BSP_SCHEDULE_DELAY: "100",
  OFFLINE_MODEL_CHUNK_DELAY_MS: "0",
  ...extra,
});

describe("OpenTelemetry export", () => {
  it("M4 a member's words reach no exported byte through turns and their jobs; with WORKSTREAMS_OTEL_RECORD_CONTENT=1 they reach each call's spans", async () => {
    const quiet = await start(exportEnv());
    await memberConversation(quiet);
    await quiet.kill("SIGTERM");
    // Spans really arrived: the turns', and one set per model call, turn and job alike.
    const names = new Set(receiver.spans().map((span) => span.name));
    expect(names).toContain("workstreams.turn");
    const leaks = receiver.bodies.filter((body) => body.includes(MARKER)).length;
    expect(leaks, "exported requests holding the member's words").toBe(0);
    expect([...names]).toEqual(expect.arrayContaining(MODEL_CALL_SPANS));

    receiver.bodies.length = 0;
    const recording = await start(exportEnv({ WORKSTREAMS_OTEL_RECORD_CONTENT: "1" }));
    await memberConversation(recording);
    await recording.kill("SIGTERM");
    const withContent = receiver
      .spans()
      .filter((span) => JSON.stringify(span.attributes ?? []).includes(MARKER))
      .map((span) => span.name);
    expect(withContent).toEqual(expect.arrayContaining(MODEL_CALL_SPANS));
  }, 180_000);
});
