"use client";
// One message of the conversation. Off-screen messages skip layout and paint
// (content-visibility), so a long workstream stays fast to scroll.
import { useParams } from "next/navigation";
import { memo } from "react";
import { TurnDetailsButton } from "@/components/inspector/turn-details-button";
import { messageText } from "@/lib/chat-client/history";
import type { ChatMessage } from "@/lib/chat-client/wire";
import { AgentAvatar } from "./agent-avatar";
import { isFilePart, MessageFiles } from "./attachments";
import { CopyButton } from "./copy-button";
import { MessageMeta } from "./message-meta";
import { AssistantParts, hasVisibleParts } from "./message-parts";

export const MessageItem = memo(function MessageItem({
  message,
  live,
  stopped,
  agentName,
}: {
  message: ChatMessage;
  /** The answer streaming in right now. */
  live: boolean;
  /** The user stopped this answer. */
  stopped: boolean;
  agentName: string;
}) {
  if (message.role === "user") {
    const text = messageText(message);
    const files = message.parts.filter(isFilePart);
    return (
      <article
        data-message-id={message.id}
        data-role="user"
        aria-label="You said"
        className="group/message flex flex-col items-end gap-2 py-3 [contain-intrinsic-size:auto_96px] [content-visibility:auto]"
      >
        {files.length ? (
          <div className="max-w-[85%] sm:max-w-[75%]">
            <MessageFiles parts={files} align="end" />
          </div>
        ) : null}
        {text ? (
          <div className="max-w-[85%] rounded-2xl rounded-br-md bg-bg-muted px-4 py-2.5 text-[15px] leading-7 whitespace-pre-wrap text-fg [overflow-wrap:anywhere] sm:max-w-[75%]">
            {text}
          </div>
        ) : null}
      </article>
    );
  }
  if (message.role !== "assistant" || (!live && !hasVisibleParts(message.parts))) return null;
  const text = messageText(message);
  const relayed = message.metadata?.relayedFrom;
  const turnId = message.metadata?.turnId;
  return (
    <article
      data-message-id={message.id}
      data-role="assistant"
      aria-label={`${agentName} said`}
      className={
        live
          ? "group/message py-3"
          : "group/message py-3 [contain-intrinsic-size:auto_240px] [content-visibility:auto]"
      }
    >
      <header className="mb-2 flex items-center gap-2">
        <AgentAvatar name={agentName} />
        <span className="text-sm font-medium text-fg">{agentName}</span>
      </header>
      <div className="min-w-0 sm:pl-8">
        {relayed ? (
          <p className="mb-2 text-[13px] text-fg-subtle" data-testid="relayed-from">
            Sent from “{relayed.title}”
          </p>
        ) : null}
        <AssistantParts
          messageId={message.id}
          parts={message.parts}
          live={live}
          context={{ turnId: message.metadata?.turnId ?? null, agentName }}
        />
        {live ? null : (
          <footer className="mt-2 flex min-h-7 items-center gap-1">
            <MessageMeta metadata={message.metadata} stopped={stopped} />
            <span className="ml-auto flex items-center gap-0.5">
              {turnId ? <TurnDetails turnId={turnId} /> : null}
              {text ? (
                <CopyButton
                  text={text}
                  label="Copy answer"
                  className="opacity-0 group-hover/message:opacity-100 group-focus-within/message:opacity-100 focus-visible:opacity-100 max-sm:opacity-100"
                />
              ) : null}
            </span>
          </footer>
        )}
      </div>
    </article>
  );
});

/** The answer's turn in the inspector; the workstream is the page's. */
function TurnDetails({ turnId }: { turnId: string }) {
  const params = useParams<{ workstreamId?: string }>();
  if (!params?.workstreamId) return null;
  return (
    <TurnDetailsButton
      url={`/api/workstreams/${encodeURIComponent(params.workstreamId)}/turns/${encodeURIComponent(turnId)}`}
      className="opacity-0 group-hover/message:opacity-100 group-focus-within/message:opacity-100 focus-visible:opacity-100 max-sm:opacity-100"
    />
  );
}
