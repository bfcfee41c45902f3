// The turn inspector's payload: what a turn did, read from its durable record. The owner's has
// content (tool arguments and results, reasons typed by a person); an admin's has none: the
// fields marked "owner only" are absent from the JSON, not hidden on screen.
import type { StageRecord, StepRecord } from "@/lib/turns/trace";

export type { StageRecord, StepRecord };

export type InspectedUsage = {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
};

export type InspectedAttempt = {
  modelId: string;
  /** The call's number within its model request: 2 and up are retries. */
  attempt: number;
  outcome: "ok" | "failed";
  /** The failure's code (never its message). */
  error?: string;
  providerStatus?: number;
  startedAt: string;
  ms: number;
  firstTokenMs: number | null;
  durationMs: number | null;
  retry: boolean;
  /** Made with the fallback model, after the primary failed. */
  fallback: boolean;
};

export type ToolStatus = "ok" | "error" | "denied" | "awaiting approval" | "not run" | "running";

export type InspectedApproval = {
  decision: "approved" | "denied" | "pending" | "expired" | "cancelled";
  /** Who or what decided: user, grant, mode, policy, guard, timeout. */
  source: string | null;
  decidedAt: string | null;
  /** Owner only: the reason as the member typed it. */
  reason?: string | null;
};

export type InspectedTool = {
  toolCallId: string;
  toolName: string;
  status: ToolStatus;
  /** The TOOL_CALL stage's duration; null when it did not run here (or was not timed). */
  ms: number | null;
  approval: InspectedApproval | null;
  /** Owner only. */
  input?: unknown;
  /** Owner only: the result, or the error's text. */
  output?: unknown;
};

export type InspectedSpecialist = {
  toolCallId: string | null;
  /** The specialist consulted, by agent id, when the record names it. */
  specialist: string | null;
  status: string | null;
  /** Model calls the specialist made. */
  steps: number | null;
  ms: number | null;
  /** Owner only: the question and the answer, when the record has them. */
  question?: string | null;
  answer?: string | null;
};

export type InspectedJob = {
  eventId: string;
  name: string;
  createdAt: string;
  /** Handed to the job engine (Inngest or the embedded runner). */
  dispatched: boolean;
  /** Failed hand-overs to the engine. */
  dispatchAttempts: number;
  runs: Array<{
    functionId: string;
    state: string;
    attempts: number;
    finishedAt: string | null;
  }>;
  failures: Array<{
    functionId: string;
    errorCode: string;
    /** The code's plain sentence. */
    errorMessage: string;
    /** Owner only: what the model provider said about its refusal. */
    providerDetail?: string;
    attempts: number;
    failedAt: string;
  }>;
};

export type TurnInspection = {
  /** Whether content (arguments, results, typed reasons) is in this payload: the owner's view. */
  content: boolean;
  turn: {
    id: string;
    workstreamId: string;
    state: string;
    /** The sentence of `errorCode`: why it ended as it did. */
    reason: string | null;
    errorCode: string | null;
    agentId: string | null;
    model: string | null;
    /** Set when the model is not in the catalogue: its capabilities are defaults, and where to set them. */
    modelNotice: string | null;
    createdAt: string;
    startedAt: string | null;
    endedAt: string | null;
    durationMs: number | null;
    /** Events in the turn's log. */
    events: number | null;
  };
  /** Null: the provider reported no counts for some model call (unknown, not free). */
  usage: InspectedUsage | null;
  costUsd: number | null;
  /** Each run of the turn (a second one after its approvals were answered), oldest first. */
  runs: Array<{
    startedAt: string;
    ms: number;
    state: string;
    stages: StageRecord[];
    steps: StepRecord[];
  }>;
  attempts: InspectedAttempt[];
  tools: InspectedTool[];
  specialists: InspectedSpecialist[];
  jobs: InspectedJob[];
};
