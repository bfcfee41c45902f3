"use client";
// The running turn in one line above the composer, from its status events: sent, thinking,
// using a tool, the agent's preamble, writing; then stopped. A failure is shown under the
// message it belongs to (turn-failure.tsx), so here it is only named for screen readers. The
// element always exists with `data-testid="turn-status"` and `data-state` = the turn's state,
// and it says "completed" only once the answer is fully on screen (chat-state's displayedTurn).
import { HandIcon, WifiOffIcon as OfflineIcon } from "lucide-react";
import { cx } from "@/components/ui/class-names";
import { Spinner } from "@/components/ui/spinner";
import { isOpen, type TurnView } from "@/lib/chat-client/turn-status";
import { ERROR_SENTENCES } from "@/lib/http/errors";

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
  writing,
  connected,
  agentName,
}: {
  /** The turn as the page shows it: completed only once its answer is on screen. */
  turn: TurnView;
  /** The running turn has started writing its answer. */
  writing: boolean;
  /** The page hears from the server; while it does not, it cannot say what the agent does. */
  connected: boolean;
  agentName: string;
}) {
  const state = turn.state;
  const running = isOpen(turn);
  return (
    <div
      data-testid="turn-status"
      data-state={state}
      role="status"
      aria-live="polite"
      className={cx(
        "flex min-h-0 items-center text-[13px]",
        running || state === "cancelled" ? "pb-2" : "",
      )}
    >
      {running && connected ? (
        <span className="flex min-w-0 items-center gap-2 text-fg-muted">
          {state === "suspended" ? (
            // Nothing is working now: the turn waits for the person reading this.
            <HandIcon className="size-3.5 shrink-0 text-accent" aria-hidden="true" />
          ) : (
            <Spinner className="size-3.5 shrink-0 text-accent" />
          )}
          <span className={cx("truncate", turn.activity?.kind === "preamble" && "italic")}>
            {activityText(turn, agentName, writing)}
          </span>
        </span>
      ) : null}
      {running && !connected ? (
        <span className="flex min-w-0 items-center gap-2 text-fg-muted">
          <OfflineIcon className="size-3.5 shrink-0" />
          <span className="truncate">
            Waiting for the connection. {agentName}'s reply continues on the server.
          </span>
        </span>
      ) : null}
      {state === "cancelled" ? (
        <span className="text-fg-subtle">{turn.reason ?? ERROR_SENTENCES["turn:stopped"]}</span>
      ) : null}
      {state === "failed" ? <span className="sr-only">The reply failed.</span> : null}
    </div>
  );
}
