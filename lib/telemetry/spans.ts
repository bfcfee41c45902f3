// The turn's spans, when OpenTelemetry is on (see ./start.ts): a span per turn with child spans
// per stage and tool call, and the AI SDK's model-call spans under the turn. Spans carry ids,
// stage and tool names, the model, token counts, durations and status, never a prompt, a message
// or tool content: the AI SDK records inputs and outputs only with
// WORKSTREAMS_OTEL_RECORD_CONTENT=1. Off (OTEL_EXPORTER_OTLP_ENDPOINT unset), every function here
// returns at once and the turn asks the SDK for no telemetry, so it costs nothing.
import { context, type Span, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import { processSingleton } from "@/lib/kernel/singleton";

type State = {
  tracer: Tracer | null;
  recordContent: boolean;
  shutdown: (() => Promise<void>) | null;
};

// Started by instrumentation.ts and read by route handlers: separate module graphs in Next.js,
// so the state lives once per process.
const state = processSingleton<State>("telemetry", () => ({
  tracer: null,
  recordContent: false,
  shutdown: null,
}));

export function telemetryState(): State {
  return state;
}

/** What each model call is for: its spans are named `invoke_agent workstreams.<name>`. */
export type ModelCallName =
  | "turn"
  | "specialist"
  | "title"
  | "activity"
  | "memory-summary"
  | "memory-facts"
  | "skills"
  | "compaction"
  | "embedding"
  | "model-check";

/**
 * What a model call asks of the AI SDK's telemetry: nothing when off; no content by default.
 * Every call takes it through lib/models/calls.ts: a call without it would record its prompt and
 * answer, the SDK's default once an integration is registered.
 */
export function modelCallTelemetry(call: ModelCallName): {
  isEnabled: boolean;
  functionId?: string;
  recordInputs?: boolean;
  recordOutputs?: boolean;
} {
  if (!state.tracer) return { isEnabled: false };
  return {
    isEnabled: true,
    functionId: `workstreams.${call}`,
    recordInputs: state.recordContent,
    recordOutputs: state.recordContent,
  };
}

export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** Runs `body` with `span` as the active span, so spans started inside are its children. */
export function withinSpan<T>(span: Span | null, body: () => T): T {
  if (!span) return body();
  return context.with(trace.setSpan(context.active(), span), body);
}

/** A child of `parent` (or a root span), or null when telemetry is off. */
export function startSpan(
  name: string,
  attributes: SpanAttributes,
  parent: Span | null = null,
): Span | null {
  const active = state.tracer;
  if (!active) return null;
  const parentContext = parent ? trace.setSpan(context.active(), parent) : context.active();
  return active.startSpan(name, { attributes: defined(attributes) }, parentContext);
}

export function endSpan(span: Span | null, ok: boolean, attributes: SpanAttributes = {}): void {
  if (!span) return;
  span.setAttributes(defined(attributes));
  span.setStatus({ code: ok ? SpanStatusCode.OK : SpanStatusCode.ERROR });
  span.end();
}

function defined(attributes: SpanAttributes): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Object.entries(attributes).filter(
      (entry): entry is [string, string | number | boolean] => entry[1] !== undefined,
    ),
  );
}
