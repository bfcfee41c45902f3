"use client";
// The message box. Enter sends, Shift+Enter starts a new line (and IME composition is left
// alone). While a turn runs, Stop takes Send's place; the reason Send is unavailable is always
// spelled out under the box. While the workstream compacts, Send says "Compacting…": a message
// sent then waits on the server for the summary (the status line says so), and until the server
// takes it there is nothing to stop, so the button stays Send, busy. The keyboard hint shows only where there is a keyboard (a fine
// pointer). A disabled Send is drawn in the composer's quiet colours, not as a faded accent,
// which in dark mode still looked pressable. Files come by the paperclip's picker, by dropping
// them on the box or by pasting; each shows as a chip that uploads at once, and a message may be
// files alone.
import { ArrowUpIcon, PaperclipIcon, SquareIcon as StopIcon } from "lucide-react";
import {
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  type Ref,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { AttachmentChips } from "./attachments";
import type { Attachments } from "./use-attachments";

/** What the picker offers: the types the server takes (it decides from the bytes anyway). */
const ACCEPT = ".png,.jpg,.jpeg,.gif,.webp,.pdf,.docx,.md,.csv,.json,.txt";

export function Composer({
  value,
  onChange,
  onSubmit,
  onStop,
  running,
  stopping,
  compacting,
  waitingForCompaction,
  blockedReason,
  textareaRef,
  agentName,
  maxChars,
  attachments,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  onStop: () => void;
  running: boolean;
  stopping: boolean;
  /** The workstream's older history is being compacted. */
  compacting: boolean;
  /** A message was sent and waits on the server for the compaction to finish. */
  waitingForCompaction: boolean;
  /** Why Send is unavailable right now (compacting, a reply running), or null. */
  blockedReason: string | null;
  textareaRef: Ref<HTMLTextAreaElement>;
  agentName: string;
  /** The longest message the server takes (its setting, handed down by the page). */
  maxChars: number;
  attachments: Attachments;
}) {
  const localRef = useRef<HTMLTextAreaElement | null>(null);
  const pickerRef = useRef<HTMLInputElement | null>(null);
  const [dragging, setDragging] = useState(false);
  const tooLong = value.length > maxChars;
  const empty = value.trim().length === 0 && attachments.ready === 0;
  const reason =
    blockedReason ??
    (tooLong
      ? `That's ${(value.length - maxChars).toLocaleString()} characters over the ${maxChars.toLocaleString()} limit.`
      : attachments.uploading
        ? "Waiting for the files to finish uploading…"
        : null);
  const canSend = !empty && reason === null;

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (!files.length) return;
    event.preventDefault();
    attachments.add(files);
  };
  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes("Files");
  const onDragOver = (event: DragEvent<HTMLFormElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setDragging(true);
  };
  const onDrop = (event: DragEvent<HTMLFormElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDragging(false);
    attachments.add([...event.dataTransfer.files]);
  };

  // Grows with its content up to a cap, then scrolls.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure whenever the text changes
  useLayoutEffect(() => {
    const element = localRef.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, 240)}px`;
  }, [value]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) onSubmit();
  };

  const setRefs = (element: HTMLTextAreaElement | null) => {
    localRef.current = element;
    if (typeof textareaRef === "function") textareaRef(element);
    else if (textareaRef) textareaRef.current = element;
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (canSend) onSubmit();
      }}
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      aria-label="Message composer"
      data-dragging={dragging || undefined}
      className={cx(
        "grid grid-cols-[minmax(0,1fr)_auto] items-end rounded-2xl border border-border-strong bg-bg-elevated shadow-sm shadow-black/5 transition-colors focus-within:border-ring/70 focus-within:ring-3 focus-within:ring-ring/15",
        dragging && "border-accent ring-3 ring-accent/20",
      )}
    >
      <AttachmentChips items={attachments.items} onRemove={attachments.remove} />
      <label htmlFor="composer" className="sr-only">
        Message
      </label>
      <textarea
        id="composer"
        ref={setRefs}
        value={value}
        rows={1}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        placeholder={dragging ? "Drop files to attach them" : `Message ${agentName}`}
        aria-describedby="composer-hint"
        aria-invalid={tooLong || undefined}
        className="block max-h-60 min-h-12 w-full resize-none bg-transparent px-4 pt-3 pb-3 text-[15px] leading-6 text-fg placeholder:text-fg-subtle sm:col-span-2 sm:pb-1"
      />
      {/* Phones: the buttons sit beside the text and the hint (when there is a reason) below. */}
      <p
        id="composer-hint"
        className={cx(
          "min-w-0 self-center px-4 pb-2 text-xs max-sm:order-last max-sm:col-span-2",
          reason ? "text-fg-muted" : "text-fg-subtle max-sm:sr-only pointer-coarse:hidden",
        )}
      >
        {reason ?? "Enter to send · Shift+Enter for a new line"}
      </p>
      <div className="flex items-center gap-2 px-2 pb-2">
        <input
          ref={pickerRef}
          type="file"
          multiple
          accept={ACCEPT}
          className="hidden"
          aria-hidden="true"
          tabIndex={-1}
          onChange={(event) => {
            if (event.target.files) attachments.add([...event.target.files]);
            event.target.value = "";
          }}
        />
        <Button
          variant="ghost"
          size="sm"
          onClick={() => pickerRef.current?.click()}
          aria-label="Attach files"
          title="Attach files (or drop or paste them)"
          className="w-8 px-0"
        >
          <PaperclipIcon className="size-4" />
        </Button>
        {value.length > maxChars * 0.9 ? (
          <span className={cx("text-xs tabular-nums", tooLong ? "text-danger" : "text-fg-subtle")}>
            {value.length.toLocaleString()} / {maxChars.toLocaleString()}
          </span>
        ) : null}
        {running && !waitingForCompaction ? (
          <Button
            variant="secondary"
            size="sm"
            onClick={onStop}
            pending={stopping}
            aria-label={stopping ? "Stopping" : "Stop"}
            aria-keyshortcuts="Escape"
            title="Stop (Esc)"
            className="w-8 px-0"
          >
            {stopping ? null : <StopIcon className="size-3.5" fill="currentColor" />}
          </Button>
        ) : compacting || waitingForCompaction ? (
          <Button
            type="submit"
            size="sm"
            disabled={!canSend}
            pending={waitingForCompaction}
            aria-label="Send (compacting…)"
            title="The earlier conversation is being summarized; a message sent now waits for it"
            className="px-2.5 disabled:bg-bg-muted disabled:text-fg-subtle disabled:opacity-100 disabled:shadow-none"
          >
            {waitingForCompaction ? null : <ArrowUpIcon className="size-4" />}
            <span aria-hidden="true">Compacting…</span>
          </Button>
        ) : (
          <Button
            type="submit"
            size="sm"
            disabled={!canSend}
            aria-label="Send"
            className="w-8 px-0 disabled:bg-bg-muted disabled:text-fg-subtle disabled:opacity-100 disabled:shadow-none"
          >
            <ArrowUpIcon className="size-4" />
          </Button>
        )}
      </div>
    </form>
  );
}
