"use client";
// A tool call inside an answer: which tool, how far it got, and — on demand — its input and
// output (or error), as formatted JSON.
import { ChevronRightIcon, WrenchIcon as ToolIcon } from "lucide-react";
import { cx } from "@/components/ui/class-names";
import { Spinner } from "@/components/ui/spinner";
import { type ChatToolPart, forbiddenOutputSchema } from "@/lib/stream/ui-parts";

const STATE_LABEL: Record<ChatToolPart["state"], string> = {
  "input-streaming": "Preparing",
  "input-available": "Running",
  "approval-requested": "Waiting for approval",
  "approval-responded": "Approved",
  "output-available": "Done",
  "output-error": "Failed",
  "output-denied": "Denied",
};

export function toolName(part: ChatToolPart): string {
  return part.type === "dynamic-tool" ? part.toolName : part.type.slice("tool-".length);
}

function formatJson(value: unknown): string {
  if (value === undefined) return "—";
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

export function ToolCall({ part }: { part: ChatToolPart }) {
  const running = part.state === "input-streaming" || part.state === "input-available";
  // A call the organization's policy forbids answers with a denial instead of running.
  const refused =
    part.state === "output-available" && forbiddenOutputSchema.safeParse(part.output).success;
  const failed = part.state === "output-error" || part.state === "output-denied" || refused;
  const name = toolName(part);
  return (
    <details
      className="group/tool my-3 rounded-xl border border-border bg-bg-subtle text-sm first:mt-0 last:mb-0"
      data-part="tool"
      data-tool-name={name}
      data-tool-state={part.state}
    >
      <summary className="flex cursor-pointer list-none items-center gap-2.5 rounded-xl px-3 py-2 select-none hover:bg-bg-muted/60 [&::-webkit-details-marker]:hidden">
        <span className="flex size-6 shrink-0 items-center justify-center rounded-md bg-bg-muted text-fg-muted">
          {running ? <Spinner className="size-3.5" /> : <ToolIcon className="size-3.5" />}
        </span>
        <span className="min-w-0 flex-1 truncate">
          <span className="text-fg-muted">Used </span>
          <span className="font-mono text-[13px] font-medium text-fg">{name}</span>
        </span>
        <span
          className={cx(
            "shrink-0 rounded-full px-2 py-0.5 text-xs font-medium",
            failed ? "bg-danger-subtle text-danger" : "bg-bg-muted text-fg-muted",
          )}
        >
          {refused ? STATE_LABEL["output-denied"] : STATE_LABEL[part.state]}
        </span>
        <ChevronRightIcon className="size-3.5 shrink-0 text-fg-subtle transition-transform group-open/tool:rotate-90" />
      </summary>
      <div className="grid gap-3 border-t border-border px-3 py-3">
        <JsonSection title="Input" value={part.input} />
        {part.state === "output-available" ? (
          <JsonSection title="Output" value={part.output} />
        ) : null}
        {part.state === "output-error" ? (
          <JsonSection title="Error" value={part.errorText} danger />
        ) : null}
      </div>
    </details>
  );
}

function JsonSection({
  title,
  value,
  danger = false,
}: {
  title: string;
  value: unknown;
  danger?: boolean;
}) {
  return (
    <section>
      <h4 className="mb-1 text-xs font-medium text-fg-subtle">{title}</h4>
      <pre
        className={cx(
          "max-h-64 overflow-auto rounded-lg border border-border bg-bg px-3 py-2 font-mono text-xs leading-5 whitespace-pre-wrap [overflow-wrap:anywhere]",
          danger ? "text-danger" : "text-fg",
        )}
      >
        {formatJson(value)}
      </pre>
    </section>
  );
}
