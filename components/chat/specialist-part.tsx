"use client";
// A specialist the lead consulted within its answer, collapsed under the lead's message: a
// disclosure (a native <details>, so Tab reaches it and Enter or Space opens it) that names the
// specialist, how the consultation went and the question, with the specialist's answer inside.
import { ChevronRightIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cx } from "@/components/ui/class-names";
import { Spinner } from "@/components/ui/spinner";
import type { ChatDataParts } from "@/lib/chat-client/wire";
import { AgentAvatar } from "./agent-avatar";

/** The part's data: the shared schema's type (lib/stream/ui-parts.ts), checked as it streams. */
type SpecialistView = ChatDataParts["specialist"];

const STATUS_LABEL: Record<SpecialistView["status"], string> = {
  working: "Answering",
  done: "Answered",
  stopped: "Stopped",
  failed: "Failed",
};

export function SpecialistPart({
  specialist,
  children,
}: {
  specialist: SpecialistView;
  /** The specialist's answer, rendered like the lead's own text. */
  children: ReactNode;
}) {
  const { name, status, question } = specialist;
  const working = status === "working";
  const ended = status === "stopped" || status === "failed";
  return (
    <details
      className="group/specialist my-3 rounded-xl border border-border bg-bg-subtle text-sm first:mt-0 last:mb-0"
      data-part="specialist"
      data-agent-id={specialist.agentId}
      data-status={status}
    >
      <summary className="flex cursor-pointer list-none items-center gap-2.5 rounded-xl px-3 py-2 select-none hover:bg-bg-muted/60 [&::-webkit-details-marker]:hidden">
        <AgentAvatar name={name} />
        <span className="min-w-0 flex-1 truncate">
          <span className="font-medium text-fg">{name}</span>
          <span className="text-fg-muted">{question ? ` on “${question}”` : " was consulted"}</span>
        </span>
        <span
          className={cx(
            "flex shrink-0 items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium",
            ended ? "bg-danger-subtle text-danger" : "bg-bg-muted text-fg-muted",
          )}
        >
          {working ? <Spinner className="size-3" /> : null}
          {STATUS_LABEL[status]}
        </span>
        <ChevronRightIcon
          aria-hidden="true"
          className="size-3.5 shrink-0 text-fg-subtle transition-transform group-open/specialist:rotate-90"
        />
      </summary>
      <div className="border-t border-border px-3 py-2.5">
        {specialist.text ? (
          children
        ) : (
          <p className="text-[13px] text-fg-subtle">
            {working ? `${name} is thinking…` : `${name} gave no answer.`}
          </p>
        )}
      </div>
    </details>
  );
}
