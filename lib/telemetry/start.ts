// Starts OpenTelemetry export (instrumentation.ts calls it when OTEL_EXPORTER_OTLP_ENDPOINT is
// set; tests call it with an in-memory processor): the tracer provider, exporting over OTLP/HTTP
// as the standard OTEL_* variables say, and the AI SDK's integration, which puts its model-call
// and tool spans under the active turn span. Loaded only then, so a server without telemetry
// never loads the SDK.
import "server-only";
import { OpenTelemetry } from "@ai-sdk/otel";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-node";
import { registerTelemetry } from "ai";
import { telemetryState } from "./spans";

const TRACER = "workstreams";

/**
 * Registers the tracer provider (OTLP over HTTP, configured by the standard OTEL_* variables,
 * unless a processor is given) and the AI SDK's integration.
 */
export function startTelemetry({ processor }: { processor?: SpanProcessor } = {}): void {
  const state = telemetryState();
  if (state.tracer) return;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      "service.name": process.env.OTEL_SERVICE_NAME || "workstreams",
    }),
    spanProcessors: [processor ?? new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  state.tracer = provider.getTracer(TRACER);
  state.recordContent = process.env.WORKSTREAMS_OTEL_RECORD_CONTENT === "1";
  state.shutdown = () => provider.shutdown();
  registerTelemetry(new OpenTelemetry({ tracer: state.tracer, agentSpanName: "functionId" }));
}

/** Flushes and stops the export (a server shutting down, a test's end). */
export async function stopTelemetry(): Promise<void> {
  const state = telemetryState();
  const shutdown = state.shutdown;
  state.tracer = null;
  state.shutdown = null;
  await shutdown?.();
}
