"use client";
import { isToolUIPart as isToolPart } from "ai";
// The parts of one message, each in its own form: text (markdown for answers), reasoning
// (collapsed), tool calls, sources, files and data parts.
import { ChevronRightIcon } from "lucide-react";
import dynamic from "next/dynamic";
import { Suspense } from "react";
import { fileIdOfUrl } from "@/lib/chat-client/upload";
import type { ChatMessage } from "@/lib/chat-client/wire";
import { ApprovalCard } from "./approval-card";
import { MessageFiles } from "./attachments";
import { safeHref } from "./markdown/text";
import { revealKey } from "./reveal-activity";
import { SpecialistPart } from "./specialist-part";
import { ToolCall, toolName } from "./tool-call";
import { useRevealedText } from "./use-revealed-text";

type Part = ChatMessage["parts"][number];

// The markdown renderer (marked + remend) is its own chunk, server-rendered for history and
// preloaded by the chat view, so it stays out of the page's first-load JavaScript. Until it has
// loaded, text shows plain inside its own Suspense boundary: suspending any higher would hide
// the page and unmount the chat, which stops the stream it is reading.
const Markdown = dynamic(() => import("./markdown/markdown").then((module) => module.Markdown));

export function preloadMarkdown(): void {
  import("./markdown/markdown").catch((error: unknown) => {
    console.warn("[chat] preloading the markdown renderer failed:", error);
  });
}

/** Who answers, and for which turn: what an approval card in the message needs to know. */
export type PartsContext = { turnId: string | null; agentName: string };

export function AssistantParts({
  messageId,
  parts,
  live,
  context,
}: {
  messageId: string;
  parts: Part[];
  live: boolean;
  context: PartsContext;
}) {
  // Approvals are asked in call order: a request waits while an earlier one is unanswered.
  const firstRequested = parts.findIndex(
    (part) => isToolPart(part) && part.state === "approval-requested",
  );
  // A consultation shows as its specialist's part; its tool call would say the same again.
  const consulted = new Set(
    parts.flatMap((part) =>
      part.type === "data-specialist" && "id" in part && typeof part.id === "string"
        ? [part.id]
        : [],
    ),
  );
  return parts.map((part, index) =>
    isToolPart(part) && consulted.has(part.toolCallId) ? null : (
      <AssistantPart
        // A message's parts only grow at the end: the position is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        key={index}
        part={part}
        live={live}
        revealKey={revealKey(messageId, index)}
        context={context}
        waitingBefore={firstRequested !== -1 && firstRequested < index}
      />
    ),
  );
}

function AssistantPart({
  part,
  live,
  revealKey,
  context,
  waitingBefore,
}: {
  part: Part;
  live: boolean;
  revealKey: string;
  context: PartsContext;
  waitingBefore: boolean;
}) {
  if (part.type === "text")
    return <RevealedText text={part.text} live={live} revealKey={revealKey} />;
  if (part.type === "reasoning")
    return <Reasoning text={part.text} streaming={part.state === "streaming"} />;
  if (isToolPart(part)) {
    if (part.state === "approval-requested" || part.state === "approval-responded") {
      return (
        <ApprovalCard
          part={part}
          toolName={toolName(part)}
          agentName={context.agentName}
          turnId={context.turnId}
          waitingBefore={waitingBefore}
        />
      );
    }
    return <ToolCall part={part} />;
  }
  if (part.type === "source-url") {
    const href = safeHref(part.url);
    return href ? (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="my-1 mr-2 inline-flex max-w-full items-center rounded-full border border-border px-2.5 py-0.5 text-xs text-fg-muted hover:text-fg"
      >
        <span className="truncate">{part.title || new URL(href).hostname}</span>
      </a>
    ) : null;
  }
  if (part.type === "file") {
    if (fileIdOfUrl(part.url)) return <MessageFiles parts={[part]} align="start" />;
    const href = safeHref(part.url);
    return href ? (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className="my-2 block text-sm text-accent-text underline underline-offset-2"
      >
        {part.filename ?? "Attached file"}
      </a>
    ) : null;
  }
  if (part.type === "data-specialist") {
    const specialist = part.data;
    return (
      <SpecialistPart specialist={specialist}>
        <RevealedText
          text={specialist.text}
          live={live && specialist.status === "working"}
          revealKey={`${revealKey}:specialist`}
        />
      </SpecialistPart>
    );
  }
  if (part.type.startsWith("data-") && "data" in part) {
    return <DataPart name={part.type.slice(5)} data={part.data} />;
  }
  return null;
}

function RevealedText({
  text,
  live,
  revealKey,
}: {
  text: string;
  live: boolean;
  revealKey: string;
}) {
  const shown = useRevealedText(text, live, revealKey);
  if (!shown) return null;
  return (
    <div data-part="text" className="my-2 first:mt-0 last:mb-0">
      <Suspense
        fallback={<p className="text-[15px] leading-7 whitespace-pre-wrap text-fg">{shown}</p>}
      >
        <Markdown text={shown} streaming={live || shown.length < text.length} />
      </Suspense>
    </div>
  );
}

function Reasoning({ text, streaming }: { text: string; streaming: boolean }) {
  if (!text && !streaming) return null;
  return (
    <details data-part="reasoning" className="group/reasoning my-3 first:mt-0 last:mb-0">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1.5 rounded-md py-0.5 text-[13px] text-fg-subtle select-none hover:text-fg-muted [&::-webkit-details-marker]:hidden">
        <ChevronRightIcon className="size-3 transition-transform group-open/reasoning:rotate-90" />
        {streaming ? "Thinking…" : "Reasoning"}
      </summary>
      <div className="mt-2 border-l-2 border-border pl-3.5 text-[13px] leading-6 whitespace-pre-wrap text-fg-muted">
        {text}
      </div>
    </details>
  );
}

function DataPart({ name, data }: { name: string; data: unknown }) {
  return (
    <div
      className="my-3 rounded-xl border border-border bg-bg-subtle px-3 py-2 first:mt-0 last:mb-0"
      data-part="data"
      data-name={name}
    >
      <p className="text-xs font-medium text-fg-subtle">{name}</p>
      <pre className="mt-1 max-h-48 overflow-auto font-mono text-xs leading-5 whitespace-pre-wrap text-fg-muted">
        {JSON.stringify(data, null, 2)}
      </pre>
    </div>
  );
}

/** Whether an assistant message has anything to show yet. */
export function hasVisibleParts(parts: Part[]): boolean {
  return parts.some(
    (part) =>
      (part.type === "text" && part.text.length > 0) ||
      part.type === "reasoning" ||
      isToolPart(part) ||
      part.type === "source-url" ||
      part.type === "file" ||
      (part.type.startsWith("data-") && "data" in part),
  );
}
