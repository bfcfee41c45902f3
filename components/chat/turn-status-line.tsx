"use client";
// The running turn in one line above the composer, from its status events: sent, thinking,
// using a tool, the agent's preamble, writing; then stopped. While the workstream compacts, it
// says so and why a reply waits (a message sent then is held until the summary is written, for
// at most the configured wait). A failure is shown under the
// message it belongs to (turn-failure.tsx), so here it is only named for screen readers. The
// element always exists with `data-testid="turn-status"` and `data-state` = the turn's state,
// and it says "completed" only once the answer is fully on screen (chat-state's displayedTurn).
// Warnings (the turn goes on without something, such as retrieved knowledge) are listed under
// the line for as long as the turn runs, as `getByTestId("turn-warning")` with `data-code`.
import {
  ArchiveIcon,
  HandIcon,
  WifiOffIcon as OfflineIcon,
  TriangleAlertIcon as WarningIcon,
} from "lucide-react";
import { cx } from "@/components/ui/class-names";
import { Spinner } from "@/components/ui/spinner";
import { isOpen, type TurnView } from "@/lib/chat-client/turn-status";
import { ERROR_SENTENCES } from "@/lib/kernel/errors";

function activityText(turn: TurnView, agentName: string, writing: boolean): string {
  const activity = turn.activity;
  if (turn.state === "suspended") return `${agentName} is waiting for your approval.`;
  if (activity?.kind === "sending") return "Sending…";
  if (activity?.kind === "acknowledged") return `Sent. ${agentName} is starting…`;
  if (activity?.kind === "tool") return `Using ${activity.toolName}…`;
  // A preamble fills the wait before the answer; once the answer is being written it is done.
  if (activity?.kind === "preamble" && !writing) return activity.text;
  return writing ? `${agentName} is writing…` : `${agentName} is thinking…`;
}

export function TurnStatusLine({
  turn,
  writing,
  connected,
  agentName,
  compacting,
  compactionWaitSeconds,
}: {
  /** The turn as the page shows it: completed only once its answer is on screen. */
  turn: TurnView;
  /** The running turn has started writing its answer. */
  writing: boolean;
  /** The page hears from the server; while it does not, it cannot say what the agent does. */
  connected: boolean;
  agentName: string;
  /** The workstream's older history is being compacted. */
  compacting: boolean;
  /** The longest a message waits for a compaction before its reply goes ahead. */
  compactionWaitSeconds: number;
}) {
  const state = turn.state;
  const running = isOpen(turn);
  const sending = turn.activity?.kind === "sending";
  // Compacting, with nothing else to say: idle, or a message the server holds for the summary.
  const compactingLine = compacting && connected && (!running || sending);
  return (
    <div
      data-testid="turn-status"
      data-state={state}
      role="status"
      aria-live="polite"
      data-compacting={compacting || undefined}
      className={cx(
        "flex min-h-0 flex-col items-start gap-1 text-[13px]",
        running || state === "cancelled" || compactingLine ? "pb-2" : "",
      )}
    >
      {compactingLine ? (
        <span className="flex min-w-0 items-center gap-2 text-fg-muted">
          {sending ? (
            <Spinner className="size-3.5 shrink-0 text-accent" />
          ) : (
            <ArchiveIcon aria-hidden="true" className="size-3.5 shrink-0 text-accent" />
          )}
          <span className="min-w-0">
            <span className="font-medium text-fg">Compacting…</span>{" "}
            {sending
              ? `${agentName}'s reply starts once the earlier conversation is summarized (at most ${compactionWaitSeconds} s).`
              : `The earlier conversation is being summarized; a reply to a message sent now starts when it's done.`}
          </span>
        </span>
      ) : null}
      {running && connected && !compactingLine ? (
        <span className="flex min-w-0 items-center gap-2 text-fg-muted">
          {state === "suspended" ? (
            // Nothing is working now: the turn waits for the person reading this.
            <HandIcon className="size-3.5 shrink-0 text-accent" aria-hidden="true" />
          ) : (
            <Spinner className="size-3.5 shrink-0 text-accent" />
          )}
          {turn.activity?.kind === "preamble" && !writing ? (
            // The agent's own words (a greeting can be a sentence long): wrapped, not cut off.
            <span data-testid="turn-preamble" className="min-w-0 italic">
              {turn.activity.text}
            </span>
          ) : (
            <span className="truncate">{activityText(turn, agentName, writing)}</span>
          )}
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
      {state === "cancelled" && !compactingLine ? (
        <span className="text-fg-subtle">{turn.reason ?? ERROR_SENTENCES["turn:stopped"]}</span>
      ) : null}
      {running
        ? turn.warnings.map((warning) => (
            <span
              key={warning.code}
              data-testid="turn-warning"
              data-code={warning.code}
              className="flex min-w-0 items-center gap-2 text-[12px] text-amber-700 dark:text-amber-300"
            >
              <WarningIcon aria-hidden="true" className="size-3.5 shrink-0" />
              <span>{warning.message}</span>
            </span>
          ))
        : null}
      {state === "failed" ? <span className="sr-only">The reply failed.</span> : null}
    </div>
  );
}
