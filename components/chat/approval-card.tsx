"use client";
// The approval card: a tool call the agent wants to make and the owner must allow first, drawn
// from the answer kept in history (so a reload, or another tab, shows it the same). It says what
// the tool does, its arguments in plain rows, the agent's stated reason, and offers Approve or
// Deny with an optional reason. Only the turn's first unanswered approval can be answered (they
// are asked in call order); later ones say they wait. Answered, it shows the answer.
import { CheckIcon, ShieldQuestionIcon, XIcon } from "lucide-react";
import { createContext, useContext, useId, useState } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { Input } from "@/components/ui/input";
import type { ChatToolPart } from "@/lib/stream/ui-parts";

export type ApprovalControls = {
  /** The suspended turn whose approvals can be answered now; null when none waits. */
  turnId: string | null;
  /** The approval being sent, while its request is in flight. */
  answering: string | null;
  answer: (input: {
    approvalId: string;
    approved: boolean;
    reason: string;
    /** Approve and remember for calls like this one, for so many days. */
    grantDays?: number;
  }) => Promise<void>;
};

/** How long "Approve and remember" lets calls like this one run without asking. */
export const REMEMBER_DAYS = 7;

const sendTarget = z.object({ workstreamId: z.string() });

/** What a remembered approval would cover, in words: a grant is per tool and approval key. */
function rememberLabel(part: ChatToolPart, toolName: string): string {
  // The call may arrive as a dynamic tool part (its input untyped), so its target is checked.
  const target = toolName === "send_message" ? sendTarget.safeParse(part.input) : null;
  if (target?.success) {
    return `Also allow messages to “${target.data.workstreamId}” for ${REMEMBER_DAYS} days without asking`;
  }
  return `Also allow ${toolName} for ${REMEMBER_DAYS} days without asking`;
}

const NO_CONTROLS: ApprovalControls = {
  turnId: null,
  answering: null,
  answer: async () => {},
};

export const ApprovalContext = createContext<ApprovalControls>(NO_CONTROLS);

/** What each tool that asks does, in words; others read "Run <tool>". */
const ACTIONS: Record<string, string> = {
  send_message: "Send a message to another of your workstreams",
};

/** Argument names as labels; unknown ones are spelled out from their name. */
const LABELS: Record<string, string> = {
  workstreamId: "To",
  text: "Message",
};

function labelOf(key: string): string {
  if (LABELS[key]) return LABELS[key];
  const words = key.replace(/([a-z])([A-Z])/g, "$1 $2").replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "—";
  return JSON.stringify(value, null, 2) ?? String(value);
}

/**
 * The arguments as rows, without the reason (shown apart, as the agent's own words). Known
 * arguments come first in their own order, the rest by name: stored JSON keeps no key order.
 */
function argumentRows(input: unknown): Array<[string, string]> {
  if (!input || typeof input !== "object" || Array.isArray(input)) {
    return [["Input", valueText(input)]];
  }
  const order = Object.keys(LABELS);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.entries(input as Record<string, unknown>)
    .filter(([key]) => key !== "reason")
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([key, value]) => [labelOf(key), valueText(value)]);
}

export function ApprovalCard({
  part,
  toolName,
  agentName,
  turnId,
  waitingBefore,
}: {
  part: ChatToolPart;
  toolName: string;
  agentName: string;
  /** The turn the message belongs to. */
  turnId: string | null;
  /** An earlier approval of the same answer is still unanswered. */
  waitingBefore: boolean;
}) {
  const controls = useContext(ApprovalContext);
  const { approval } = part;
  const headingId = useId();
  const reasonId = useId();
  const rememberId = useId();
  const [reason, setReason] = useState("");
  const [remember, setRemember] = useState(false);
  const requested = part.state === "approval-requested";
  const open = requested && controls.turnId !== null && controls.turnId === turnId;
  const actionable = open && !waitingBefore;
  const sending = controls.answering !== null && controls.answering === approval?.id;
  const answered = approval?.approved !== undefined;
  const state = answered ? "answered" : actionable ? "pending" : open ? "waiting" : "closed";

  const send = (approved: boolean) => {
    if (!approval?.id || controls.answering) return;
    void controls.answer({
      approvalId: approval.id,
      approved,
      reason: reason.trim(),
      ...(approved && remember ? { grantDays: REMEMBER_DAYS } : {}),
    });
  };

  return (
    <section
      aria-labelledby={headingId}
      data-testid="approval-card"
      data-approval-id={approval?.id}
      data-state={state}
      className={cx(
        "my-3 rounded-xl border text-sm first:mt-0 last:mb-0",
        state === "pending" ? "border-accent/60 bg-accent-subtle/40" : "border-border bg-bg-subtle",
      )}
    >
      <header className="flex items-start gap-2.5 px-3 pt-3">
        <span className="flex size-6 shrink-0 items-center justify-center rounded-md bg-bg-muted text-fg-muted">
          <ShieldQuestionIcon className="size-3.5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h3 id={headingId} className="font-medium text-fg">
            {answered
              ? approval?.approved
                ? "You approved this action"
                : "You declined this action"
              : `${agentName} asks to act`}
          </h3>
          <p className="text-[13px] text-fg-muted">
            {ACTIONS[toolName] ?? "Run a tool"}{" "}
            <span className="font-mono text-[12px] text-fg-subtle">({toolName})</span>
          </p>
        </div>
      </header>
      <dl className="mx-3 mt-2.5 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5 rounded-lg border border-border bg-bg px-3 py-2">
        {argumentRows(part.input).map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-[13px] text-fg-subtle">{label}</dt>
            <dd className="text-[13px] whitespace-pre-wrap text-fg [overflow-wrap:anywhere]">
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {approval?.requestReason ? (
        <p className="mx-3 mt-2 text-[13px] text-fg-muted">
          <span className="text-fg-subtle">{agentName}’s reason: </span>
          {approval.requestReason}
        </p>
      ) : null}
      <div className="px-3 pt-2.5 pb-3">
        {state === "pending" ? (
          <div className="grid gap-2.5">
            <div className="grid gap-1">
              <label htmlFor={reasonId} className="text-[12px] font-medium text-fg-muted">
                Reason (optional)
              </label>
              <Input
                id={reasonId}
                value={reason}
                maxLength={500}
                onChange={(event) => setReason(event.target.value)}
                onKeyDown={(event) => {
                  // Enter approves from the reason box, as a form would submit.
                  if (event.key === "Enter" && !event.nativeEvent.isComposing) {
                    event.preventDefault();
                    send(true);
                  }
                }}
                placeholder="Told to the agent with your answer"
                className="h-9"
              />
            </div>
            <div className="flex items-start gap-2">
              <input
                id={rememberId}
                type="checkbox"
                checked={remember}
                onChange={(event) => setRemember(event.target.checked)}
                className="mt-0.5 size-4 shrink-0 accent-[var(--accent)]"
              />
              <label htmlFor={rememberId} className="text-[13px] text-fg-muted">
                {rememberLabel(part, toolName)}
              </label>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button
                size="sm"
                onClick={() => send(true)}
                pending={sending}
                pendingLabel="Sending…"
                disabled={controls.answering !== null}
              >
                <CheckIcon className="size-3.5" aria-hidden="true" />
                Approve
              </Button>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => send(false)}
                disabled={controls.answering !== null}
              >
                <XIcon className="size-3.5" aria-hidden="true" />
                Deny
              </Button>
            </div>
          </div>
        ) : (
          <p className="text-[13px] text-fg-muted" role={state === "answered" ? undefined : "note"}>
            {state === "answered"
              ? approval?.reason
                ? `Your reason: ${approval.reason}`
                : part.state === "approval-responded"
                  ? `${agentName} is going on…`
                  : null
              : state === "waiting"
                ? "Waiting for your answer to the request above."
                : "Not answered: the turn ended first."}
          </p>
        )}
      </div>
    </section>
  );
}
