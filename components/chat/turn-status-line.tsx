"use client";
// The running turn in one line, from its status events: sent, thinking, using a tool, the
// agent's preamble, writing; then stopped, or failed with the reason and Retry. The element
// always exists with `data-testid="turn-status"` and `data-state` = the turn's state, and it
// says "completed" only once the answer is fully on screen.
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { Spinner } from "@/components/ui/spinner";
import type { TurnState, TurnView } from "@/lib/chat-client/turn-status";
import { ERROR_SENTENCES } from "@/lib/http/errors";
import { AlertIcon, RetryIcon } from "./icons";

export function displayedState(turn: TurnView, revealing: boolean): TurnState {
  return turn.state === "completed" && revealing ? "active" : turn.state;
}

function activityText(turn: TurnView, agentName: string, writing: boolean): string {
  const activity = turn.activity;
  if (turn.state === "suspended") return `${agentName} is waiting for your approval.`;
  if (activity?.kind === "sending") return "Sending…";
  if (activity?.kind === "acknowledged") return `Sent. ${agentName} is starting…`;
  if (activity?.kind === "tool") return `Using ${activity.toolName}…`;
  if (activity?.kind === "preamble") return activity.text;
  return writing ? `${agentName} is writing…` : `${agentName} is thinking…`;
}

export function TurnStatusLine({
  turn,
  revealing,
  writing,
  agentName,
  onRetry,
}: {
  turn: TurnView;
  /** An answer is still being revealed on screen. */
  revealing: boolean;
  /** The running turn has started writing its answer. */
  writing: boolean;
  agentName: string;
  /** Present when the failed message can be sent again. */
  onRetry: (() => void) | null;
}) {
  const state = displayedState(turn, revealing);
  const running = state === "pending" || state === "active" || state === "suspended";
  return (
    <div
      data-testid="turn-status"
      data-state={state}
      role="status"
      aria-live="polite"
      className={cx(
        "flex min-h-0 items-center text-[13px]",
        running || state === "failed" || state === "cancelled" ? "pb-2" : "",
      )}
    >
      {running ? (
        <span className="flex min-w-0 items-center gap-2 text-fg-muted">
          <Spinner className="size-3.5 shrink-0 text-accent" />
          <span className={cx("truncate", turn.activity?.kind === "preamble" && "italic")}>
            {activityText(turn, agentName, writing || turn.state === "completed")}
          </span>
        </span>
      ) : null}
      {state === "cancelled" ? (
        <span className="text-fg-subtle">{turn.reason ?? ERROR_SENTENCES["turn:stopped"]}</span>
      ) : null}
      {state === "failed" ? (
        <div className="flex w-full min-w-0 items-start gap-2.5 rounded-xl border border-danger-border bg-danger-subtle px-3 py-2 text-danger">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          <p className="min-w-0 flex-1 leading-5 [overflow-wrap:anywhere]">
            <span className="font-medium">The reply failed.</span>{" "}
            <span className="text-fg-muted">{turn.error?.message ?? "Something went wrong."}</span>
          </p>
          {onRetry ? (
            <Button variant="secondary" size="sm" onClick={onRetry} className="-my-1 shrink-0">
              <RetryIcon className="size-3.5" />
              Retry
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
