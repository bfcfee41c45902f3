// A turn that waits for a person. When the model's stream ends on tool calls that need approval
// (their parts are `approval-requested`), the turn is suspended: it keeps its answer so far,
// records the approvals, releases its run (no registry entry, no lease, no busy flag) and stays
// open, so the workstream takes no new message until the approvals are answered, expire or the
// turn is stopped. Answering goes on with the same turn from the answer kept here.

import { consultedSteps } from "@/lib/agents/specialists";
import type { RequestedApproval } from "@/lib/approvals/store";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";
import { sumUsage } from "@/lib/models/usage";
import { statusChunk } from "@/lib/stream/types";
import type { WorkstreamMessage } from "./messages";
import type { Outcome, TurnRecord } from "./outcome";

/** A turn going on after its approvals: the answer it kept, and what it had used for it. */
export type ResumedTurn = { message: WorkstreamMessage; record: TurnRecord };

type ToolPartLike = {
  type: string;
  toolCallId?: string;
  toolName?: string;
  state?: string;
  input?: unknown;
  approval?: { id?: string; isAutomatic?: boolean };
};

function isToolPart(part: { type: string }): boolean {
  return part.type === "dynamic-tool" || part.type.startsWith("tool-");
}

/** The tool calls of `message` that wait for a person, in the order they were made. */
export function requestedApprovals(message: WorkstreamMessage | null): RequestedApproval[] {
  if (!message) return [];
  const tools = (message.parts as ToolPartLike[]).filter(isToolPart);
  return tools.flatMap((part, position) =>
    part.state === "approval-requested" &&
    part.approval?.id &&
    part.approval.isAutomatic !== true &&
    part.toolCallId
      ? [
          {
            approvalId: part.approval.id,
            toolCallId: part.toolCallId,
            toolName:
              part.type === "dynamic-tool"
                ? String(part.toolName)
                : part.type.slice("tool-".length),
            input: part.input,
            position,
          },
        ]
      : [],
  );
}

/** The suspended outcome, when the answer ends on approvals; null otherwise. */
export function suspended(
  turnId: string,
  message: WorkstreamMessage | null,
  record: TurnRecord,
): Outcome | null {
  const approvals = requestedApprovals(message);
  if (approvals.length === 0) return null;
  const reason = ERROR_SENTENCES["turn:awaiting_approval"];
  return {
    end: { state: "suspended", reason, errorCode: "turn:awaiting_approval", ...record },
    message,
    approvals,
    closing: [
      { type: "finish", finishReason: "tool-calls", messageMetadata: message?.metadata },
      statusChunk(turnId, { state: "suspended", reason }),
    ],
  };
}

/**
 * Model calls so far, the consulted specialists' included: a turn going on after an approval has
 * the rest of its step bound.
 */
export function stepsSoFar(message: WorkstreamMessage): number {
  return (
    message.parts.filter((part) => part.type === "step-start").length + consultedSteps(message)
  );
}

/** What a turn used in all: its run now plus, after an approval, what it used before. */
export function resumedRecord(
  resumed: ResumedTurn | undefined,
  now: Required<TurnRecord>,
): Required<TurnRecord> {
  if (!resumed) return now;
  const before = resumed.record;
  const cost =
    before.costUsd === null || now.costUsd === null
      ? null
      : (before.costUsd ?? 0) + (now.costUsd ?? 0);
  return {
    usage: sumUsage([before.usage ?? null, now.usage ?? null]),
    costUsd: cost,
    attempts: [...(before.attempts ?? []), ...(now.attempts ?? [])],
  };
}
