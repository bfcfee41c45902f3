// OpenTelemetry through a real turn on the offline model, exported to memory: the turn is one
// span tree (the turn, its stages, its tool call, the AI SDK's model-call spans under it), the
// spans carry ids, names, counts and status, and a marker sent in the message appears in no span's name, attribute or event.
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelCallTelemetry } from "@/lib/telemetry/spans";
import { startTelemetry, stopTelemetry } from "@/lib/telemetry/start";
import { type AppServer, startAppServer } from "../support/app-server";
import { send, userWithWorkstream } from "../support/fixtures";
import { readSse } from "../support/sse";
import { releaseTestDatabase, type TestDatabase, useTestDatabase } from "../support/test-db";
import { eventually } from "./approvals-support";

const MARKER = "otter-basalt-4417";
const exporter = new InMemorySpanExporter();
let testDb: TestDatabase;
let server: AppServer;

beforeAll(async () => {
  process.env.OFFLINE_MODEL_CHUNK_DELAY_MS = "0";
  testDb = await useTestDatabase();
  server = await startAppServer();
});
afterAll(async () => {
  await stopTelemetry();
  await server?.close();
  await releaseTestDatabase(testDb);
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe("OpenTelemetry", () => {
  it("off, a model call asks the AI SDK for no telemetry", () => {
    expect(modelCallTelemetry("turn")).toEqual({ isEnabled: false });
  });

  it("exports a turn as one span tree with ids and counts, and no content", async () => {
    startTelemetry({ processor: new SimpleSpanProcessor(exporter) });
    expect(modelCallTelemetry("turn")).toMatchObject({ isEnabled: true, recordInputs: false });
    const owner = await userWithWorkstream(server.url, "Telemetry Tester");
    const response = await send(
      owner,
      `work out ${MARKER} [tool:calculate:{"expression":"4417 * 2"}]`,
    );
    const turnId = String(response.headers.get("x-turn-id"));
    await readSse(response);
    const spans = await eventually(async () => {
      const finished = exporter.getFinishedSpans();
      return finished.some((span) => span.name === "workstreams.turn") ? finished : null;
    });

    const turn = spans.find((span) => span.name === "workstreams.turn");
    expect(turn?.attributes).toMatchObject({
      "workstreams.turn.id": turnId,
      "workstreams.workstream.id": owner.workstreamId,
      // Named once the opening statement has checked the session.
      "workstreams.organization.id": owner.organizationId,
      "workstreams.turn.state": "completed",
      "workstreams.usage.input_tokens": expect.any(Number),
      "workstreams.usage.output_tokens": expect.any(Number),
    });
    if (!turn) throw new Error("no turn span");
    expect(parentOf(turn)).toBeUndefined();
    const children = spans.filter((span) => parentOf(span) === idOf(turn));
    const stages = children
      .filter((span) => span.name.startsWith("workstreams.stage "))
      .map((span) => span.attributes["workstreams.stage"]);
    expect(stages).toEqual(
      expect.arrayContaining([
        "RECEIVE_INPUT",
        "COMPOSE_REQUEST",
        "SEND_REQUEST",
        "STREAM_RESPONSE",
        "RENDER",
      ]),
    );
    const tool = children.find((span) => span.name === "workstreams.tool_call");
    expect(tool?.attributes).toMatchObject({
      "workstreams.stage": "TOOL_CALL",
      "workstreams.tool.name": "calculate",
    });
    // The AI SDK's spans hang under the turn: its agent span is a child, the model calls below.
    const sdk = children.filter((span) => !span.name.startsWith("workstreams."));
    expect(sdk.length).toBeGreaterThan(0);
    const underSdk = spans.filter((span) => sdk.some((root) => parentOf(span) === idOf(root)));
    expect(underSdk.length).toBeGreaterThan(0);

    const exported = JSON.stringify(
      spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })),
    );
    expect(exported).not.toContain(MARKER);
  });
});
