"use client";
// A failed reply, right under the message it belongs to (the last one): what went wrong and,
// when the message can be sent again, Retry. The headline says "failed" once: a reason that
// already says so stands alone.
import { CircleAlertIcon as AlertIcon, RotateCcwIcon as RetryIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { TurnError } from "@/lib/chat-client/turn-status";

export function failureText(error: TurnError | null): { lead: string | null; detail: string } {
  const detail = error?.message?.trim() || "Something went wrong.";
  return /\bfail/i.test(detail) ? { lead: null, detail } : { lead: "The reply failed.", detail };
}

export function TurnFailure({
  error,
  onRetry,
}: {
  error: TurnError | null;
  /** Present when the failed message can be sent again. */
  onRetry: (() => void) | null;
}) {
  const { lead, detail } = failureText(error);
  return (
    <div
      data-testid="turn-failure"
      className="mb-3 flex w-full min-w-0 items-start gap-2.5 rounded-xl border border-danger-border bg-danger-subtle px-3 py-2 text-[13px] text-danger sm:ml-8 sm:w-[calc(100%-2rem)]"
    >
      <AlertIcon className="mt-0.5 size-4 shrink-0" />
      <p className="min-w-0 flex-1 leading-5 [overflow-wrap:anywhere]">
        {lead ? <span className="font-medium">{lead} </span> : null}
        <span className={lead ? "text-fg-muted" : "font-medium"}>{detail}</span>
      </p>
      {onRetry ? (
        <Button variant="secondary" size="sm" onClick={onRetry} className="-my-1 shrink-0">
          <RetryIcon className="size-3.5" />
          Retry
        </Button>
      ) : null}
    </div>
  );
}
