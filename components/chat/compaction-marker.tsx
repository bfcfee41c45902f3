"use client";
// One compacted range in the conversation: a divider saying how many earlier messages were
// compacted, which opens to the summary the agent now works from, what that summary changed in
// the workstream state, and, on request, the original messages, a page at a time like history.
// Nothing is hidden for good: the originals are kept and read back from the server.
import { ArchiveIcon, ChevronDownIcon } from "lucide-react";
import { useCallback, useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { Spinner } from "@/components/ui/spinner";
import { fetchCompactedPage } from "@/lib/chat-client/api";
import { prependOlder } from "@/lib/chat-client/history";
import type { ChatCompaction, ChatMessage } from "@/lib/chat-client/wire";
import { MessageItem } from "./message-item";

/** Each state list's item, with its article ("Added a decision: …"). */
const LIST_LABELS: Record<string, string> = {
  currentPlan: "a plan",
  activeConstraints: "a constraint",
  keyDecisions: "a decision",
  tasks: "a task",
  openQuestions: "an open question",
  risks: "a risk",
  artifacts: "an artifact",
  agentContributions: "a contribution",
};

const plural = (count: number, word: string) =>
  `${count.toLocaleString()} ${word}${count === 1 ? "" : "s"}`;

function Originals({
  workstreamId,
  compaction,
  pageSize,
  agentNames,
  defaultAgentName,
}: {
  workstreamId: string;
  compaction: ChatCompaction;
  pageSize: number;
  agentNames: Record<string, string>;
  defaultAgentName: string;
}) {
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  const load = useCallback(
    async (beforeMessageId?: string) => {
      setLoading(true);
      setFailed(false);
      try {
        const page = await fetchCompactedPage(workstreamId, compaction.id, {
          beforeMessageId,
          take: pageSize,
        });
        setMessages((current) => prependOlder(current ?? [], page.messages));
        setCursor(page.hasMore ? page.prevCursor : null);
      } catch (error) {
        console.warn("[chat] loading compacted messages failed:", error);
        setFailed(true);
      } finally {
        setLoading(false);
      }
    },
    [workstreamId, compaction.id, pageSize],
  );

  // The first page as soon as the originals are asked for.
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section
      data-testid="compaction-originals"
      aria-label="Original messages"
      aria-busy={loading}
      className="mt-3 rounded-xl border border-dashed border-border-strong px-3 sm:px-4"
    >
      {cursor ? (
        <div className="flex justify-center pt-3">
          <button
            type="button"
            onClick={() => void load(cursor)}
            disabled={loading}
            className="inline-flex items-center gap-2 rounded-full px-3 py-1 text-xs font-medium text-fg-subtle transition-colors hover:bg-bg-muted hover:text-fg-muted"
          >
            {loading ? <Spinner className="size-3.5" /> : null}
            Show earlier original messages
          </button>
        </div>
      ) : null}
      {messages === null && loading ? (
        <p className="flex items-center gap-2 py-3 text-xs text-fg-subtle">
          <Spinner className="size-3.5" /> Loading the original messages…
        </p>
      ) : null}
      {failed ? (
        <p className="py-3 text-xs text-danger">
          Couldn't load the original messages.{" "}
          <button
            type="button"
            className="underline"
            onClick={() => void load(cursor ?? undefined)}
          >
            Try again
          </button>
        </p>
      ) : null}
      {messages?.map((message) => (
        <MessageItem
          key={message.id}
          message={message}
          live={false}
          stopped={false}
          agentName={
            (message.metadata?.agentId && agentNames[message.metadata.agentId]) || defaultAgentName
          }
        />
      ))}
    </section>
  );
}

export function CompactionMarker({
  workstreamId,
  compaction,
  pageSize,
  agentNames,
  defaultAgentName,
}: {
  workstreamId: string;
  compaction: ChatCompaction;
  /** Messages per page of the originals (the history's page size). */
  pageSize: number;
  agentNames: Record<string, string>;
  defaultAgentName: string;
}) {
  const [open, setOpen] = useState(false);
  const [showOriginals, setShowOriginals] = useState(false);
  const detailsId = useId();
  const { added, evicted } = compaction.stateChanges;
  const when = new Date(compaction.createdAt);
  const count = plural(compaction.messageCount, "earlier message");

  return (
    <section
      data-testid="compaction-marker"
      data-compaction-id={compaction.id}
      aria-label={`${count} compacted`}
      className="py-3"
    >
      <div className="flex items-center gap-3">
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
        <button
          type="button"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen((value) => !value)}
          className="inline-flex max-w-full min-w-0 items-center gap-2 rounded-full border border-border bg-bg-elevated px-3 py-1.5 text-xs font-medium text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg"
        >
          <ArchiveIcon aria-hidden="true" className="size-3.5 shrink-0" />
          <span className="truncate">{count} compacted</span>
          <ChevronDownIcon
            aria-hidden="true"
            className={cx("size-3.5 shrink-0 transition-transform", open && "rotate-180")}
          />
        </button>
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
      </div>
      {open ? (
        <div
          id={detailsId}
          className="mt-3 rounded-xl border border-border bg-bg-subtle px-4 py-3 text-sm"
        >
          <h3 className="text-xs font-medium text-fg-subtle">
            Summary the agent works from instead
          </h3>
          <p
            data-testid="compaction-summary"
            className="mt-1 leading-6 text-fg [overflow-wrap:anywhere]"
          >
            {compaction.summary}
          </p>
          {added.length > 0 || evicted.length > 0 ? (
            <div data-testid="compaction-state-changes" className="mt-3">
              <h3 className="text-xs font-medium text-fg-subtle">
                What it changed in the workstream state
              </h3>
              <ul className="mt-1 grid gap-1 text-[13px] leading-5">
                {added.map((item) => (
                  <li key={`added-${item.id}`} className="[overflow-wrap:anywhere]">
                    <span className="font-medium text-fg">
                      Added {LIST_LABELS[item.list] ?? item.list}:
                    </span>{" "}
                    <span className="text-fg-muted">{item.text}</span>
                  </li>
                ))}
                {evicted.map((item) => (
                  <li key={`evicted-${item.id}`} className="[overflow-wrap:anywhere]">
                    <span className="font-medium text-fg">
                      Let go of {LIST_LABELS[item.list] ?? item.list}:
                    </span>{" "}
                    <span className="text-fg-muted">
                      {item.text} ({item.rule})
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-fg-subtle">
              <time dateTime={when.toISOString()} suppressHydrationWarning>
                {when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}
              </time>
              {" · "}
              {compaction.tokensBefore.toLocaleString()} → {compaction.tokensAfter.toLocaleString()}{" "}
              tokens
            </p>
            <Button
              variant="secondary"
              size="sm"
              aria-expanded={showOriginals}
              onClick={() => setShowOriginals((value) => !value)}
            >
              {showOriginals
                ? "Hide the original messages"
                : `Show the ${plural(compaction.messageCount, "original message")}`}
            </Button>
          </div>
          {showOriginals ? (
            <Originals
              workstreamId={workstreamId}
              compaction={compaction}
              pageSize={pageSize}
              agentNames={agentNames}
              defaultAgentName={defaultAgentName}
            />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
