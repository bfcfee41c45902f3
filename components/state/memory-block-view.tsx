"use client";
// The memory block: the summary its older notes were folded into, then the notes since, each
// labelled with who wrote it and when. Notes can be deleted (after a confirmation).
import { Trash2Icon } from "lucide-react";
import type { ContextView, MemoryBlockEntry } from "@/lib/state/schema";
import { EmptyLine, ItemAction, ItemActions, PanelSection, RelativeTime } from "./panel-parts";

export function MemoryBlockView({
  memoryBlock,
  agentNames,
  now,
  onDelete,
}: {
  memoryBlock: ContextView["memoryBlock"];
  agentNames: Record<string, string>;
  now: Date | null;
  /** Asks before deleting (focus then goes to the section's heading). */
  onDelete: (entry: MemoryBlockEntry) => void;
}) {
  const { summary, entries } = memoryBlock;
  return (
    <PanelSection
      id="context-memory"
      title="Memory block"
      meta={
        entries.length > 0 ? `${entries.length} ${entries.length === 1 ? "note" : "notes"}` : null
      }
    >
      {summary ? (
        <div
          data-memory-summary=""
          className="mb-2 rounded-lg border border-border bg-bg px-3 py-2 text-[13px] leading-5"
        >
          <p className="text-xs text-fg-subtle">
            Summary of {summary.entries} earlier {summary.entries === 1 ? "note" : "notes"} ·{" "}
            <RelativeTime iso={summary.at} now={now} />
          </p>
          <p className="mt-0.5 break-words text-fg-muted">{summary.text}</p>
        </div>
      ) : null}
      {entries.length > 0 ? (
        <ol className="space-y-0.5">
          {entries.map((entry) => (
            <li
              key={entry.id}
              data-memory-entry={entry.id}
              className="group relative -mx-2 flex items-start gap-2 rounded-lg px-2 py-1.5 transition-colors hover:bg-bg-muted/60"
            >
              <div className="min-w-0 flex-1 text-[13px] leading-5">
                <p className="text-xs text-fg-subtle">
                  <span className="font-medium text-fg-muted">
                    {agentNames[entry.role] ?? entry.role}
                  </span>{" "}
                  · <RelativeTime iso={entry.createdAt} now={now} />
                </p>
                <p className="break-words text-fg">{entry.text}</p>
              </div>
              <ItemActions>
                <ItemAction
                  label="Delete note"
                  onClick={() => onDelete(entry)}
                  className="hover:text-danger!"
                >
                  <Trash2Icon className="size-3.5" />
                </ItemAction>
              </ItemActions>
            </li>
          ))}
        </ol>
      ) : summary ? null : (
        <EmptyLine>No notes yet. The agent keeps short notes here as you work.</EmptyLine>
      )}
    </PanelSection>
  );
}
