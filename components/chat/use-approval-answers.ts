"use client";
// Answering the turn's approvals: one answer at a time goes to the server, a refusal becomes a
// notice, and the workstream is looked at again afterwards (a turn that went on is followed).
import { useState } from "react";
import { answerApproval } from "@/lib/chat-client/api";
import { ChatRequestError } from "@/lib/chat-client/wire";

export type ApprovalAnswer = {
  approvalId: string;
  approved: boolean;
  reason: string;
  grantDays?: number;
};

export function useApprovalAnswers({
  workstreamId,
  turnId,
  notify,
  afterAnswer,
}: {
  workstreamId: string;
  /** The turn waiting for the answers; null when none waits. */
  turnId: string | null;
  notify: (message: string, tone?: "error" | "info") => void;
  afterAnswer: () => Promise<void>;
}) {
  const [answering, setAnswering] = useState<string | null>(null);
  const answer = async ({ approvalId, approved, reason, grantDays }: ApprovalAnswer) => {
    if (!turnId) return;
    setAnswering(approvalId);
    try {
      await answerApproval(workstreamId, {
        turnId,
        approvalId,
        approved,
        ...(reason ? { reason } : {}),
        ...(grantDays ? { grantDays } : {}),
      });
    } catch (error) {
      const answered =
        error instanceof ChatRequestError && error.code === "conflict:approval_answered";
      notify(
        answered
          ? "That approval was already answered (perhaps in another tab)."
          : error instanceof Error
            ? error.message
            : "Couldn't send your answer.",
        answered ? "info" : "error",
      );
    } finally {
      setAnswering(null);
    }
    // The answer is in history now; a turn that went on is followed from there.
    await afterAnswer();
  };
  return { turnId, answering, answer };
}
