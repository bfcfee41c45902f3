"use client";
// An admin's view of one workstream's runs: its recent turns (state, model, tokens, cost), each
// opening in the turn inspector. Metadata only, as the admin API answers it. Loaded the first
// time an admin opens it (see ./admin-runs-button).
import { ArrowLeftIcon, XIcon } from "lucide-react";
import { type RefObject, useEffect, useState } from "react";
import { IconButton } from "@/components/ui/button";
import { Sheet, SheetTitle } from "@/components/ui/sheet";
import { Spinner } from "@/components/ui/spinner";
import type { AdminTurn } from "@/lib/admin/workstreams";
import { formatCost } from "@/lib/format/cost";
import { UNKNOWN } from "@/lib/format/duration";
import { TurnInspector } from "./turn-inspector";

export function AdminRunsSheet({
  open,
  onOpenChange,
  workstream,
  returnFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workstream: { id: string; title: string };
  returnFocus: RefObject<HTMLElement | null>;
}) {
  const [runs, setRuns] = useState<AdminTurn[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [turnId, setTurnId] = useState<string | null>(null);
  const base = `/api/admin/workstreams/${encodeURIComponent(workstream.id)}`;
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setTurnId(null);
    fetch(base, { signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`status ${response.status}`);
        setRuns(((await response.json()) as { runs: AdminTurn[] }).runs);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn("[admin] loading the runs failed", error);
        setFailed(true);
      });
    return () => controller.abort();
  }, [open, base]);
  return (
    <Sheet
      open={open}
      onOpenChange={onOpenChange}
      side="right"
      returnFocus={returnFocus}
      className="w-[min(34rem,100vw)]! bg-bg!"
    >
      <div className="flex items-center gap-2 border-b border-border px-4 py-3">
        {turnId ? (
          <IconButton label="Back to the runs" onClick={() => setTurnId(null)}>
            <ArrowLeftIcon className="size-4" />
          </IconButton>
        ) : null}
        <SheetTitle className="min-w-0 flex-1 truncate text-base font-semibold text-fg">
          {turnId ? "Turn details" : `Runs of ${workstream.title}`}
        </SheetTitle>
        <IconButton label="Close" onClick={() => onOpenChange(false)}>
          <XIcon className="size-4" />
        </IconButton>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {turnId ? (
          <TurnInspector url={`${base}/turns/${encodeURIComponent(turnId)}`} />
        ) : failed ? (
          <p role="alert" className="p-4 text-sm text-danger">
            The runs did not load. Try again.
          </p>
        ) : runs === null ? (
          <div className="flex items-center gap-2 p-4 text-sm text-fg-muted" role="status">
            <Spinner /> Loading the runs…
          </div>
        ) : runs.length === 0 ? (
          <p className="p-4 text-sm text-fg-subtle">No turn has run here yet.</p>
        ) : (
          <ul className="divide-y divide-border" data-testid="admin-runs">
            {runs.map((run) => (
              <li key={run.id}>
                <button
                  type="button"
                  onClick={() => setTurnId(run.id)}
                  className="flex w-full flex-col gap-0.5 px-4 py-2.5 text-left hover:bg-bg-muted focus-visible:bg-bg-muted"
                >
                  <span className="flex items-center gap-2 text-sm text-fg">
                    <span className="font-medium">{run.state}</span>
                    <span className="text-fg-muted">{run.model ?? run.agentId ?? ""}</span>
                    <time className="ml-auto text-xs text-fg-subtle" dateTime={run.createdAt}>
                      {new Date(run.createdAt).toLocaleString([], {
                        dateStyle: "short",
                        timeStyle: "short",
                      })}
                    </time>
                  </span>
                  <span className="text-xs text-fg-muted">
                    {run.inputTokens === null ? UNKNOWN : run.inputTokens} in ·{" "}
                    {run.outputTokens === null ? UNKNOWN : run.outputTokens} out ·{" "}
                    {run.costUsd === null ? `${UNKNOWN} cost` : formatCost(run.costUsd)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Sheet>
  );
}
