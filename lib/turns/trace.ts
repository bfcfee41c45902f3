// What one run of a turn did, kept in memory while it runs and written with its end: when each
// stage began and how long it took, each tool call's stage, and each model step's usage. The
// closing statement appends it to the turn's `timeline` (a turn that waited for an approval has
// one entry per run), so the record costs no statement of its own. Ids, names, counts and
// durations only: never a message, an argument or a result.
import type { TokenUsage } from "@/lib/models/usage";
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

export class TurnTrace {
  private readonly started = Date.now();
  private readonly stages: StageRecord[] = [];
  private readonly steps: StepRecord[] = [];

  /** Starts a stage; the returned function ends it. */
  begin(stage: Stage, about: { toolName?: string; toolCallId?: string } = {}) {
    const at = Date.now() - this.started;
    return (outcome: "ok" | "error") => {
      this.stages.push({ stage, at, ms: Date.now() - this.started - at, outcome, ...about });
    };
  }

  step(step: StepRecord): void {
    this.steps.push(step);
  }

  /** The run as the closing statement writes it; RENDER is timed up to that statement. */
  record(state: string, rendering?: { at: number }): RunRecord {
    const stages = [...this.stages];
    if (rendering) {
      stages.push({
        stage: "RENDER",
        at: rendering.at,
        ms: Date.now() - this.started - rendering.at,
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
