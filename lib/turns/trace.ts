// What one run of a turn did, kept in memory while it runs and written with its end: when each
// stage began and how long it took, each tool call's stage, and each model step's usage. The
// closing transaction appends it to the turn's `timeline` (a turn that waited for an approval has
// one entry per run), so the record costs no statement of its own. Ids, names, counts and
// durations only: never a message, an argument or a result. With OpenTelemetry on, the same
// stages are spans under the turn's span (see lib/telemetry/spans).
import type { Span } from "@opentelemetry/api";
import type { TokenUsage } from "@/lib/models/usage";
import { endSpan, startSpan, withinSpan } from "@/lib/telemetry/spans";
import type { Stage } from "./bus";

export type StageRecord = {
  stage: Stage;
  /** Milliseconds from the run's start to the stage's start. */
  at: number;
  ms: number;
  outcome: "ok" | "error";
  toolName?: string;
  toolCallId?: string;
};

export type StepRecord = {
  /** The model that answered the step, when the SDK said. */
  modelId?: string;
  finishReason: string;
  /** Null: the provider reported no counts (unknown, not free). */
  usage: TokenUsage | null;
  costUsd: number | null;
};

/** One run of a turn: from its start (or its continuation after approvals) to its end. */
export type RunRecord = {
  startedAt: string;
  ms: number;
  /** How the run ended: completed, cancelled, failed, or suspended for an approval. */
  state: string;
  stages: StageRecord[];
  steps: StepRecord[];
};

/** Who the turn is, for its span: ids only. */
export type TurnIdentity = {
  turnId: string;
  workstreamId: string;
  /** Absent until the turn's opening has checked the session (see `identify`). */
  organizationId?: string;
  /** "start" for a new turn, "continue" for its run after approvals. */
  run: "start" | "continue";
};

export class TurnTrace {
  private readonly started = Date.now();
  private readonly stages: StageRecord[] = [];
  private readonly steps: StepRecord[] = [];
  /** The turn's span; null when telemetry is off. */
  private readonly span: Span | null;
  private spanEnded = false;
  /** RENDER, from its start to the closing transaction that writes the record. */
  private render: { at: number; span: Span | null } | null = null;

  constructor(identity?: TurnIdentity) {
    this.span = identity
      ? startSpan("workstreams.turn", {
          "workstreams.turn.id": identity.turnId,
          "workstreams.workstream.id": identity.workstreamId,
          "workstreams.organization.id": identity.organizationId,
          "workstreams.turn.run": identity.run,
        })
      : null;
  }

  /** Names the turn's organization on its span, once the opening has checked who it is for. */
  identify(organizationId: string): void {
    this.span?.setAttribute("workstreams.organization.id", organizationId);
  }

  /** Starts a stage; the returned function ends it. */
  begin(stage: Stage, about: { toolName?: string; toolCallId?: string } = {}) {
    const at = Date.now() - this.started;
    const span = startSpan(
      stage === "TOOL_CALL" ? "workstreams.tool_call" : `workstreams.stage ${stage}`,
      {
        "workstreams.stage": stage,
        "workstreams.tool.name": about.toolName,
        "workstreams.tool.call_id": about.toolCallId,
      },
      this.span,
    );
    return (outcome: "ok" | "error") => {
      const ms = Date.now() - this.started - at;
      this.stages.push({ stage, at, ms, outcome, ...about });
      endSpan(span, outcome === "ok", { "workstreams.duration_ms": ms });
    };
  }

  step(step: StepRecord): void {
    this.steps.push(step);
  }

  /** Runs `body` under the turn's span: the AI SDK's model-call spans become its children. */
  within<T>(body: () => T): T {
    return withinSpan(this.span, body);
  }

  /** RENDER begins: it ends with the closing transaction, which writes the record. */
  startRender(): void {
    this.render = {
      at: Date.now() - this.started,
      span: startSpan("workstreams.stage RENDER", { "workstreams.stage": "RENDER" }, this.span),
    };
  }

  /** Ends the turn's span (and RENDER's) with how the turn ended. */
  end(end: {
    state: string;
    errorCode?: string;
    model?: string | null;
    usage?: TokenUsage | null;
    costUsd?: number | null;
  }): void {
    if (this.spanEnded) return;
    this.spanEnded = true;
    endSpan(this.render?.span ?? null, end.state !== "failed");
    endSpan(this.span, end.state !== "failed", {
      "workstreams.turn.state": end.state,
      "workstreams.turn.error_code": end.errorCode,
      "workstreams.model": end.model ?? undefined,
      "workstreams.usage.input_tokens": end.usage?.inputTokens,
      "workstreams.usage.output_tokens": end.usage?.outputTokens,
      "workstreams.cost_usd": end.costUsd ?? undefined,
      "workstreams.duration_ms": Date.now() - this.started,
    });
  }

  /** The run as the closing transaction writes it; RENDER is timed up to that statement. */
  record(state: string): RunRecord {
    const stages = [...this.stages];
    if (this.render) {
      stages.push({
        stage: "RENDER",
        at: this.render.at,
        ms: Date.now() - this.started - this.render.at,
        outcome: "ok",
      });
    }
    stages.sort((a, b) => a.at - b.at);
    return {
      startedAt: new Date(this.started).toISOString(),
      ms: Date.now() - this.started,
      state,
      stages,
      steps: [...this.steps],
    };
  }

  /** Milliseconds since the run began. */
  elapsed(): number {
    return Date.now() - this.started;
  }
}
