"use client";
// The context panel's content, the same in the column and the phone sheet: the execution plan,
// the workstream state (editable), the memory block (notes deletable) and what the agent saw on
// its last turn. Edits go to the server, and the panel shows the state the server answers with;
// deletions ask first. Loaded with the panel, not with the chat page.
import { RotateCwIcon } from "lucide-react";
import { useState } from "react";
import { useNow } from "@/components/sidebar/use-now";
import { ConfirmDialog, type ConfirmRequest } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { ChatRequestError } from "@/lib/chat-client/wire";
import type { ContextSectionName, MemoryBlockEntry, StateListName } from "@/lib/state/schema";
import { AgentSawView } from "./agent-saw-view";
import { deleteMemoryBlockEntry, patchWorkstreamState } from "./context-api";
import { ContextPanelPlaceholder } from "./context-placeholder";
import { type AnyStateItem, removeDelta } from "./edit";
import { STATE_LIST_LABELS } from "./labels";
import { MemoryBlockView } from "./memory-block-view";
import { PlanView } from "./plan-view";
import { type StateActions, type StateLimits, StateLists } from "./state-lists";
import type { WorkstreamContext } from "./use-workstream-context";

export type ContextPanelBodyProps = {
  workstreamId: string;
  context: WorkstreamContext;
  agentNames: Record<string, string>;
  limits: StateLimits;
  /** The server's assembly order of a turn's context sections. */
  sectionOrder: readonly ContextSectionName[];
};

function useConfirmation() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    if (!request) return;
    setPending(true);
    setError(null);
    try {
      await request.onConfirm();
      setRequest(null);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "That did not work. Try again.");
    } finally {
      setPending(false);
    }
  };
  return {
    ask: (next: ConfirmRequest) => {
      setError(null);
      setRequest(next);
    },
    dialog: (
      <ConfirmDialog
        request={request}
        pending={pending}
        error={error}
        onCancel={() => setRequest(null)}
        onConfirm={() => void run()}
      />
    ),
  };
}

/** A deletion that finds its target already gone has done what was asked. */
function alreadyGone(error: unknown): boolean {
  return (
    error instanceof ChatRequestError &&
    (error.code === "not_found:memory_entry" ||
      (error.code === "bad_request:validation" && error.details.reason === "unknown_id"))
  );
}

function Quote({ text }: { text: string }) {
  return <q className="line-clamp-3 break-words text-fg">{text}</q>;
}

export function ContextPanelBody({
  workstreamId,
  context,
  agentNames,
  limits,
  sectionOrder,
}: ContextPanelBodyProps) {
  const now = useNow();
  const confirm = useConfirmation();
  const { view, error } = context;
  if (!view) {
    return error ? (
      <div className="space-y-3 px-4 py-4">
        <FormAlert>Could not load the workstream context. {error.message}</FormAlert>
        <RetryButton onRetry={context.reload} />
      </div>
    ) : (
      <ContextPanelPlaceholder />
    );
  }

  const stateActions: StateActions = {
    save: async (delta) => {
      context.applyStateWrite(await patchWorkstreamState(workstreamId, delta));
    },
    remove: (list: StateListName, item: AnyStateItem, fallbackFocus) => {
      const { noun } = STATE_LIST_LABELS[list];
      confirm.ask({
        title: `Delete this ${noun}?`,
        body: (
          <>
            <Quote text={item.text} /> leaves the workstream state, and the agent no longer sees it.
          </>
        ),
        confirmLabel: "Delete",
        tone: "danger",
        fallbackFocus,
        onConfirm: async () => {
          try {
            context.applyStateWrite(
              await patchWorkstreamState(workstreamId, removeDelta(list, item.id)),
            );
          } catch (failure) {
            if (!alreadyGone(failure)) throw failure;
            context.reload();
          }
        },
      });
    },
  };

  const deleteNote = (entry: MemoryBlockEntry) =>
    confirm.ask({
      title: "Delete this note?",
      body: (
        <>
          <Quote text={entry.text} /> leaves the memory block, and the agent no longer sees it.
        </>
      ),
      confirmLabel: "Delete",
      tone: "danger",
      fallbackFocus: () => document.getElementById("context-memory"),
      onConfirm: async () => {
        try {
          await deleteMemoryBlockEntry(workstreamId, entry.id);
        } catch (failure) {
          if (!alreadyGone(failure)) throw failure;
        }
        context.removeMemoryEntry(entry.id);
      },
    });

  return (
    <div className="divide-y divide-border pb-6">
      {error ? (
        <div className="flex items-start gap-2 px-4 py-3 text-xs text-fg-muted">
          <p role="status" className="flex-1">
            Could not refresh: {error.message}
          </p>
          <RetryButton onRetry={context.reload} />
        </div>
      ) : null}
      <PlanView plan={view.plan} />
      <StateLists
        state={view.state}
        planActive={view.plan?.status === "active"}
        lastEvictions={view.lastEvictions}
        limits={limits}
        agentNames={agentNames}
        actions={stateActions}
      />
      <MemoryBlockView
        memoryBlock={view.memoryBlock}
        agentNames={agentNames}
        now={now}
        onDelete={deleteNote}
      />
      <AgentSawView lastTurn={view.lastTurn} now={now} sectionOrder={sectionOrder} />
      {confirm.dialog}
    </div>
  );
}

function RetryButton({ onRetry }: { onRetry: () => void }) {
  return (
    <button
      type="button"
      onClick={onRetry}
      className="inline-flex shrink-0 items-center gap-1.5 rounded-md px-2 py-1 text-xs font-medium text-accent-text hover:bg-bg-muted"
    >
      <RotateCwIcon aria-hidden="true" className="size-3.5" />
      Retry
    </button>
  );
}
