"use client";
// The chat page's one client component: it owns the conversation's state (useWorkstreamChat),
// the draft, history paging and scrolling, and lays out header, messages, status and composer.

import { ArrowDownIcon } from "lucide-react";
import { useEffect, useMemo, useRef } from "react";
import { ContextPanel, ContextToggle, useContextPanel } from "@/components/state/context-panel";
import type { StateLimits } from "@/components/state/state-lists";
import { useWorkstreamContext } from "@/components/state/use-workstream-context";
import { splitCompacted } from "@/lib/chat-client/compactions";
import type {
  ChatCompaction,
  ChatHistoryPage,
  TurnStatusEvent,
  WorkstreamDescription,
} from "@/lib/chat-client/wire";
import type { ContextSectionName } from "@/lib/state/schema";
import { ApprovalContext } from "./approval-card";
import { FilesContext } from "./attachments";
import { ChatHeader } from "./chat-header";
import { CompactionMarker } from "./compaction-marker";
import { Composer } from "./composer";
import { ConnectionBanner } from "./connection-banner";
import { EmptyChat } from "./empty-chat";
import { MessageList } from "./message-list";
import { preloadMarkdown } from "./message-parts";
import {
  OfflineModelBadge,
  OfflineModelIntro,
  type OfflineTrigger,
  TriggerDialog,
  useTriggerDialog,
} from "./offline-model-note";
import { createRevealActivity, RevealActivityContext } from "./reveal-activity";
import { Toasts, useToasts } from "./toasts";
import { ToolPermissions, type ToolSettings } from "./tool-permissions";
import { TurnFailure } from "./turn-failure";
import { TurnStatusLine } from "./turn-status-line";
import { useAttachments } from "./use-attachments";
import { useChatShortcuts } from "./use-chat-shortcuts";
import { useCompactions } from "./use-compactions";
import { useDraft } from "./use-draft";
import { useLiveTitle } from "./use-live-title";
import { useOlderHistory } from "./use-older-history";
import { useOnline } from "./use-online";
import { useStickToBottom } from "./use-stick-to-bottom";
import { useWorkstreamChat } from "./use-workstream-chat";

export type ChatViewProps = {
  workstream: WorkstreamDescription;
  history: ChatHistoryPage;
  /** The workstream's compacted ranges, oldest first. */
  compactions: ChatCompaction[];
  /** How the last turn ended, when none is running. */
  lastStatus: TurnStatusEvent | null;
  agentNames: Record<string, string>;
  /** What the workstream's agent says to open a new workstream (its configured greeting). */
  greeting: string | null;
  /** The offline model's trigger table while it is the model in use, else null. */
  offlineTriggers: OfflineTrigger[] | null;
  /** The server's limits the page must respect, from its settings. */
  limits: ChatLimits;
  /** The workstream context panel: open beside the chat as this browser left it, and its limits. */
  contextPanel: {
    initiallyOpen: boolean;
    limits: StateLimits;
    sectionOrder: readonly ContextSectionName[];
  };
  /** The workstream's tool permissions (security mode, allowlist) and its agent's tools. */
  toolSettings: ToolSettings;
};

export type ChatLimits = {
  /** The longest message the server takes. */
  maxMessageChars: number;
  /** Messages per page of history. */
  pageSize: number;
  /** How long a message waits for a running compaction before its reply goes ahead, in seconds. */
  compactionWaitSeconds: number;
};

/** The text to send: trailing space and leading blank lines dropped, indentation kept. */
function messageToSend(value: string): string {
  return value.replace(/^\s*\n/, "").trimEnd();
}

export function ChatView({
  workstream,
  history,
  compactions: initialCompactions,
  lastStatus,
  agentNames,
  greeting,
  offlineTriggers,
  limits,
  contextPanel,
  toolSettings,
}: ChatViewProps) {
  const { toasts, push, dismiss } = useToasts();
  const draft = useDraft(workstream.id);
  const attachments = useAttachments(workstream.id);
  const activity = useMemo(createRevealActivity, []);
  const chat = useWorkstreamChat({
    workstream,
    history,
    lastStatus,
    pageSize: limits.pageSize,
    revealActivity: activity,
    notify: push,
    onSendAccepted: () => {
      draft.accepted();
      attachments.accepted();
    },
    onSendRefused: (text) => {
      draft.refused(text);
      attachments.refused();
    },
  });
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const composerRef = useRef<HTMLTextAreaElement>(null);
  const { awayFromBottom, scrollToBottom } = useStickToBottom(scrollRef, contentRef);
  const compactions = useCompactions(workstream.id, initialCompactions);
  const compacted = splitCompacted(chat.messages, compactions);
  const older = useOlderHistory({
    workstreamId: workstream.id,
    initial: history,
    pageSize: limits.pageSize,
    messageCount: chat.messages.length,
    setMessages: chat.setMessages,
    scrollRef,
    notify: push,
  });
  const online = useOnline();
  const title = useLiveTitle(workstream.id, workstream.title);
  const triggers = useTriggerDialog();
  const panel = useContextPanel(contextPanel.initiallyOpen);
  const context = useWorkstreamContext({
    workstreamId: workstream.id,
    enabled: panel.shown,
    running: chat.running,
  });
  useEffect(preloadMarkdown, []);
  useChatShortcuts({ composerRef, running: chat.running && !chat.stopping, onStop: chat.stop });

  const agentName = agentNames[workstream.agentId] ?? workstream.agentId;
  // While compacting, Send still works: the message waits on the server (the status says why).
  const blockedReason =
    chat.running && !chat.waitingForCompaction
      ? `${agentName} is replying. Stop the reply (Esc) to send something new.`
      : chat.suspended
        ? `${agentName} is waiting for your approval above. Answer it, or stop, to send something new.`
        : null;
  // Older history beyond the latest compacted range is all compacted: its markers stand for it.
  const olderHasMore = older.hasMore && !compacted.reachedCompacted;
  const markers =
    compactions.length > 0 && !olderHasMore
      ? compactions.map((compaction) => (
          <CompactionMarker
            key={compaction.id}
            workstreamId={workstream.id}
            compaction={compaction}
            pageSize={limits.pageSize}
            agentNames={agentNames}
            defaultAgentName={agentName}
          />
        ))
      : null;
  const liveMessageId = chat.liveMessageId;
  const live = chat.messages.find((message) => message.id === liveMessageId);
  const writing = Boolean(live?.parts.some((part) => part.type === "text" && part.text));
  // A stopped reply is marked at once; its stored copy carries the mark after a reload.
  const lastMessage = chat.messages.at(-1);
  const stoppedMessageId =
    chat.turn.state === "cancelled" && lastMessage?.role === "assistant" ? lastMessage.id : null;

  const submit = () => {
    const text = messageToSend(draft.value);
    if ((!text && !attachments.ready) || blockedReason || attachments.uploading) return;
    draft.takeForSend();
    chat.send(text, attachments.take());
    scrollToBottom();
  };

  const tryExample = (text: string) => {
    draft.change(text);
    composerRef.current?.focus();
  };

  return (
    <FilesContext.Provider value={workstream.id}>
      <RevealActivityContext.Provider value={activity}>
        <ApprovalContext.Provider value={chat.approvals}>
          <div className="flex h-full min-h-0">
            <div className="flex min-w-0 flex-1 flex-col">
              <ChatHeader
                title={title}
                agentName={agentName}
                subtitle={
                  workstream.mode === "direct"
                    ? `Direct workstream with ${agentName}`
                    : `Workstream led by ${agentName}`
                }
                actions={
                  <>
                    {offlineTriggers ? <OfflineModelBadge onOpen={triggers.open} /> : null}
                    <ToolPermissions workstreamId={workstream.id} initial={toolSettings} />
                    <ContextToggle panel={panel} />
                  </>
                }
              />
              <ConnectionBanner
                online={online}
                connection={chat.connection}
                onReconnect={chat.reconnect}
              />
              <MessageList
                messages={compacted.visible}
                compacted={markers}
                liveMessageId={liveMessageId}
                stoppedMessageId={stoppedMessageId}
                agentNames={agentNames}
                defaultAgentName={agentName}
                hasMore={olderHasMore}
                loadingOlder={older.loading}
                onLoadOlder={older.loadOlder}
                scrollRef={scrollRef}
                contentRef={contentRef}
                footer={
                  chat.turn.state === "failed" ? (
                    <TurnFailure
                      error={chat.turn.error}
                      onRetry={chat.canRetry ? chat.retry : null}
                    />
                  ) : null
                }
                empty={
                  <EmptyChat agentName={agentName} greeting={greeting}>
                    {offlineTriggers ? (
                      <OfflineModelIntro onTry={tryExample} onShowTriggers={triggers.open} />
                    ) : null}
                  </EmptyChat>
                }
              />
              <div className="relative shrink-0">
                {/* The same scrollbar gutters as the messages above, so the composer lines up with
                their column when it is narrower than the column's maximum width. */}
                <div className="overflow-hidden pt-1 pb-3 [scrollbar-gutter:stable_both-edges] sm:pb-4">
                  <div className="mx-auto w-full max-w-3xl px-4 sm:px-6">
                    {awayFromBottom && chat.messages.length > 0 ? (
                      <button
                        type="button"
                        onClick={() => scrollToBottom("smooth")}
                        aria-label="Jump to the latest message"
                        className="absolute -top-11 left-1/2 flex size-9 -translate-x-1/2 items-center justify-center rounded-full border border-border bg-bg-elevated text-fg-muted shadow-elevated transition-colors hover:text-fg dark:border-border-strong dark:shadow-none"
                      >
                        <ArrowDownIcon className="size-4" />
                      </button>
                    ) : null}
                    <TurnStatusLine
                      turn={chat.turn}
                      writing={writing}
                      connected={online && chat.connection === "connected"}
                      agentName={agentName}
                      compacting={chat.compacting}
                      compactionWaitSeconds={limits.compactionWaitSeconds}
                    />
                    <Composer
                      value={draft.value}
                      onChange={draft.change}
                      onSubmit={submit}
                      onStop={chat.stop}
                      // A turn waiting for an approval can be stopped too.
                      running={chat.running || chat.suspended}
                      stopping={chat.stopping}
                      compacting={chat.compacting}
                      waitingForCompaction={chat.waitingForCompaction}
                      blockedReason={blockedReason}
                      textareaRef={composerRef}
                      agentName={agentName}
                      maxChars={limits.maxMessageChars}
                      attachments={attachments}
                    />
                  </div>
                </div>
              </div>
              {offlineTriggers ? (
                <TriggerDialog dialogRef={triggers.ref} triggers={offlineTriggers} />
              ) : null}
              <Toasts toasts={toasts} onDismiss={dismiss} />
            </div>
            <ContextPanel
              panel={panel}
              body={{
                workstreamId: workstream.id,
                context,
                agentNames,
                limits: contextPanel.limits,
                sectionOrder: contextPanel.sectionOrder,
              }}
            />
          </div>
        </ApprovalContext.Provider>
      </RevealActivityContext.Provider>
    </FilesContext.Provider>
  );
}
