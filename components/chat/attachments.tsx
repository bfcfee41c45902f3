"use client";
// Attachments on screen: the chips in the composer (name, size, a real upload progress bar, a
// remove button) and the files of a sent message (an image itself, scaled by CSS; any other
// file as a card with a download link). A file's address is the workstream's file route, which
// answers with a short-lived signed URL: the page never holds one for long.
import { FileIcon, FileTextIcon, XIcon } from "lucide-react";
import { createContext, useContext } from "react";
import { cx } from "@/components/ui/class-names";
import { fileIdOfUrl, filePath } from "@/lib/chat-client/upload";
import type { ChatMessage } from "@/lib/chat-client/wire";
import { sizeLabel, typeLabel } from "@/lib/files/labels";
import type { PendingAttachment } from "./use-attachments";

/** The workstream whose files the messages show. */
export const FilesContext = createContext<string | null>(null);

type FilePart = Extract<ChatMessage["parts"][number], { type: "file" }>;

export function isFilePart(part: ChatMessage["parts"][number]): part is FilePart {
  return part.type === "file";
}

export function AttachmentChips({
  items,
  onRemove,
}: {
  items: PendingAttachment[];
  onRemove: (key: string) => void;
}) {
  if (!items.length) return null;
  return (
    <ul
      aria-label="Attachments"
      className="flex flex-wrap gap-2 px-3 pt-3 sm:col-span-2 max-sm:col-span-2"
    >
      {items.map((item) => (
        <li
          key={item.key}
          data-testid="attachment-chip"
          data-state={item.state}
          className={cx(
            "relative flex max-w-full min-w-0 items-center gap-2 overflow-hidden rounded-xl border bg-bg px-2 py-1.5 pr-1",
            item.state === "failed" ? "border-danger/60" : "border-border",
          )}
        >
          {item.preview ? (
            // biome-ignore lint/performance/noImgElement: a local blob preview, not an optimizable image
            <img src={item.preview} alt="" className="size-8 shrink-0 rounded-md object-cover" />
          ) : (
            <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-bg-muted text-fg-muted">
              <FileTextIcon className="size-4" aria-hidden="true" />
            </span>
          )}
          <span className="flex min-w-0 flex-col">
            <span className="max-w-44 truncate text-[13px] font-medium text-fg">{item.name}</span>
            <span
              className={cx("text-xs", item.state === "failed" ? "text-danger" : "text-fg-subtle")}
            >
              {item.state === "failed"
                ? item.error
                : item.state === "uploading"
                  ? `Uploading… ${Math.round(item.progress * 100)}%`
                  : `${item.uploaded ? typeLabel(item.uploaded.mediaType) : ""} · ${sizeLabel(item.size)}`}
            </span>
          </span>
          <button
            type="button"
            onClick={() => onRemove(item.key)}
            aria-label={`Remove ${item.name}`}
            className="flex size-7 shrink-0 items-center justify-center rounded-lg text-fg-muted hover:bg-bg-muted hover:text-fg"
          >
            <XIcon className="size-3.5" aria-hidden="true" />
          </button>
          {item.state === "uploading" ? (
            <span
              role="progressbar"
              aria-label={`Uploading ${item.name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(item.progress * 100)}
              className="absolute inset-x-0 bottom-0 h-0.5 bg-bg-muted"
            >
              <span
                className="block h-full bg-accent transition-[width] duration-150"
                style={{ width: `${Math.round(item.progress * 100)}%` }}
              />
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The files a message carries: images first as pictures, then the other files as cards. */
export function MessageFiles({ parts, align }: { parts: FilePart[]; align: "start" | "end" }) {
  const workstreamId = useContext(FilesContext);
  if (!workstreamId || !parts.length) return null;
  const files = parts.flatMap((part) => {
    const id = fileIdOfUrl(part.url);
    return id ? [{ id, part }] : [];
  });
  const images = files.filter(({ part }) => part.mediaType.startsWith("image/"));
  const others = files.filter(({ part }) => !part.mediaType.startsWith("image/"));
  return (
    <div className={cx("flex flex-col gap-2", align === "end" ? "items-end" : "items-start")}>
      {images.length ? (
        <div className={cx("flex flex-wrap gap-2", align === "end" ? "justify-end" : "")}>
          {images.map(({ id, part }) => (
            <a
              key={id}
              href={filePath(workstreamId, id)}
              target="_blank"
              rel="noopener noreferrer"
              data-part="file"
              data-file-id={id}
              className="block overflow-hidden rounded-xl border border-border bg-bg-muted"
            >
              {/* biome-ignore lint/performance/noImgElement: a signed, short-lived URL behind a redirect */}
              <img
                src={filePath(workstreamId, id)}
                alt={part.filename ?? "Attached image"}
                loading="lazy"
                className="block max-h-64 min-h-20 w-auto max-w-full min-w-20 object-contain sm:max-w-80"
              />
            </a>
          ))}
        </div>
      ) : null}
      {others.map(({ id, part }) => (
        <div
          key={id}
          data-part="file"
          data-file-id={id}
          className="flex w-72 max-w-full items-center gap-3 rounded-xl border border-border bg-bg-elevated px-3 py-2.5"
        >
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-bg-muted text-fg-muted">
            <FileIcon className="size-4" aria-hidden="true" />
          </span>
          <span className="flex min-w-0 flex-1 flex-col">
            <span className="truncate text-sm font-medium text-fg">{part.filename ?? "File"}</span>
            <span className="text-xs text-fg-subtle">{typeLabel(part.mediaType)}</span>
          </span>
          <a
            href={filePath(workstreamId, id, true)}
            aria-label={`Download ${part.filename ?? "file"}`}
            className="shrink-0 rounded-lg px-2 py-1 text-[13px] font-medium text-accent-text hover:bg-bg-muted"
          >
            Download
          </a>
        </div>
      ))}
    </div>
  );
}
