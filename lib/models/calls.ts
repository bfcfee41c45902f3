// The app's only way to call a model: the AI SDK's generateText, streamText and embedMany with
// the telemetry settings of modelCallTelemetry() (biome.json refuses those three anywhere else).
// Once an OpenTelemetry integration is registered the SDK records every call, inputs and outputs
// included, unless the call says otherwise; so each call here says it, and names what it is for.
import { embedMany, generateText, type OutputInterface, streamText, type ToolSet } from "ai";
import { type ModelCallName, modelCallTelemetry } from "@/lib/telemetry/spans";

type RuntimeContext = Record<string, unknown>;

/** What the caller may not set: the telemetry is this module's. */
type Named = { call: ModelCallName; telemetry?: never; experimental_telemetry?: never };

type GenerateOptions<TOOLS extends ToolSet, OUTPUT extends OutputInterface> = Parameters<
  typeof generateText<TOOLS, RuntimeContext, OUTPUT>
>[0];
type StreamOptions<TOOLS extends ToolSet, OUTPUT extends OutputInterface> = Parameters<
  typeof streamText<TOOLS, RuntimeContext, OUTPUT>
>[0];

/** generateText, recording no content unless WORKSTREAMS_OTEL_RECORD_CONTENT=1. */
export function generateModelText<
  TOOLS extends ToolSet,
  OUTPUT extends OutputInterface = OutputInterface<string, string>,
>({ call, ...options }: GenerateOptions<TOOLS, OUTPUT> & Named) {
  return generateText<TOOLS, RuntimeContext, OUTPUT>({
    ...options,
    telemetry: modelCallTelemetry(call),
  });
}

/** streamText, recording no content unless WORKSTREAMS_OTEL_RECORD_CONTENT=1. */
export function streamModelText<
  TOOLS extends ToolSet,
  OUTPUT extends OutputInterface = OutputInterface<string, string, never>,
>({ call, ...options }: StreamOptions<TOOLS, OUTPUT> & Named) {
  return streamText<TOOLS, RuntimeContext, OUTPUT>({
    ...options,
    telemetry: modelCallTelemetry(call),
  });
}

/** embedMany, recording no content unless WORKSTREAMS_OTEL_RECORD_CONTENT=1. */
export function embedModelValues({ call, ...options }: Parameters<typeof embedMany>[0] & Named) {
  return embedMany({ ...options, telemetry: modelCallTelemetry(call) });
}
