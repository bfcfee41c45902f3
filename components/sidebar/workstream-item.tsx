"use client";
import {
  ArchiveIcon,
  EllipsisIcon as MoreIcon,
  PencilIcon,
  Trash2Icon as TrashIcon,
  ArchiveRestoreIcon as UnarchiveIcon,
} from "lucide-react";
// One workstream in the sidebar: a link to its chat with a running indicator and the time of
// its last activity; standard group workstreams also get a menu (rename, archive or unarchive,
// delete) and can be renamed inline (F2 or the menu; Enter saves, Escape cancels).
import Link from "next/link";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { cx } from "@/components/ui/class-names";
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from "@/components/ui/menu";
import type { WorkstreamSummary } from "@/lib/workstreams/types";
import { formatRelativeTime } from "./relative-time";

export type RowActions = {
  rename(id: string, title: string): Promise<string | null>;
  archive(workstream: WorkstreamSummary): void;
  unarchive(workstream: WorkstreamSummary): void;
  remove(workstream: WorkstreamSummary): void;
};

export function RunningDot({ running }: { running: boolean }) {
  if (!running) return null;
  return (
    <span className="relative flex size-2 shrink-0" title="Running">
      <span className="absolute inset-0 animate-ping rounded-full bg-accent/60 motion-reduce:animate-none" />
      <span className="relative size-2 rounded-full bg-accent" />
      <span className="sr-only">Running</span>
    </span>
  );
}

/** A message arrived from another workstream since the owner last opened this one. */
export function UnreadMark({ unread }: { unread: boolean }) {
  if (!unread) return null;
  return (
    <span
      data-testid="unread-mark"
      className="shrink-0 rounded-full bg-accent px-1.5 text-[10px] leading-4 font-semibold text-accent-fg"
    >
      New
    </span>
  );
}

export function WorkstreamItem({
  workstream,
  active,
  now,
  leading,
  actions,
  editing,
  onEditingChange,
  titleMaxChars,
}: {
  workstream: WorkstreamSummary;
  active: boolean;
  now: Date | null;
  leading?: ReactNode;
  actions?: RowActions;
  editing: boolean;
  onEditingChange: (editing: boolean) => void;
  titleMaxChars: number;
}) {
  const archived = workstream.status === "archived";
  if (editing && actions) {
    return (
      <RenameField
        workstream={workstream}
        maxLength={titleMaxChars}
        onDone={() => onEditingChange(false)}
        rename={actions.rename}
      />
    );
  }
  return (
    <li className="group/row relative flex items-center">
      <Link
        href={`/w/${encodeURIComponent(workstream.id)}`}
        data-sidebar-item=""
        data-workstream-id={workstream.id}
        data-unread={workstream.hasUnread && !active ? "" : undefined}
        data-renamable={actions ? "" : undefined}
        aria-current={active ? "page" : undefined}
        className={cx(
          "flex h-7 min-w-0 flex-1 items-center gap-2 rounded-lg px-2 text-[13px] transition-colors",
          active
            ? "bg-bg-muted font-medium text-fg"
            : "text-fg-muted hover:bg-bg-muted hover:text-fg",
          archived && "text-fg-subtle",
          // Touch screens have no hover: the menu button is always shown, beside the time.
          actions && "[@media(hover:none)]:pr-8",
        )}
      >
        {leading}
        <span className="min-w-0 flex-1 truncate" title={workstream.title}>
          {workstream.title}
        </span>
        {archived ? (
          <span className="shrink-0 rounded border border-border px-1 text-[10px] font-medium text-fg-subtle">
            Archived
          </span>
        ) : null}
        <UnreadMark unread={Boolean(workstream.hasUnread) && !active} />
        <RunningDot running={workstream.isRunning} />
        <LastActive iso={workstream.lastActivityAt} now={now} hideOnHover={Boolean(actions)} />
      </Link>
      {actions ? (
        <RowMenu workstream={workstream} actions={actions} onRename={() => onEditingChange(true)} />
      ) : null}
    </li>
  );
}

/**
 * The relative time, its place reserved before it is known. With a pointer that hovers, the row's
 * menu button covers it on hover; on touch screens both are shown side by side.
 * `className` replaces the default text size.
 */
export function LastActive({
  iso,
  now,
  hideOnHover = false,
  className,
}: {
  iso: string;
  now: Date | null;
  hideOnHover?: boolean;
  className?: string;
}) {
  return (
    <time
      dateTime={iso}
      title={now ? new Date(iso).toLocaleString() : undefined}
      className={cx(
        "min-w-6 shrink-0 text-right tabular-nums text-fg-subtle",
        className ?? "text-[11px]",
        hideOnHover &&
          // Hidden under the menu button while it shows (hover, focus, or its menu open: the
          // popup is elsewhere in the page, so focus is then not within the row).
          "[@media(hover:hover)]:group-focus-within/row:invisible [@media(hover:hover)]:group-hover/row:invisible [@media(hover:hover)]:group-has-[[aria-expanded=true]]/row:invisible",
      )}
    >
      {now ? formatRelativeTime(iso, now) : ""}
    </time>
  );
}

function RowMenu({
  workstream,
  actions,
  onRename,
}: {
  workstream: WorkstreamSummary;
  actions: RowActions;
  onRename: () => void;
}) {
  const archived = workstream.status === "archived";
  return (
    // Positioned by a wrapper: the menu's own root is `relative` (its popup's anchor).
    <div className="absolute top-0.5 right-1">
      <Menu>
        <MenuTrigger
          aria-label={`Actions for ${workstream.title}`}
          tooltip={archived ? "Rename, unarchive or delete" : "Rename or archive"}
          className="flex size-6 items-center justify-center rounded-md text-fg-subtle opacity-0 transition-opacity hover:bg-bg-elevated hover:text-fg group-focus-within/row:opacity-100 group-hover/row:opacity-100 aria-expanded:opacity-100 focus-visible:opacity-100 [@media(hover:none)]:opacity-100"
        >
          <MoreIcon className="size-4" />
        </MenuTrigger>
        <MenuContent align="end" className="w-44!">
          <MenuItem onSelect={onRename}>
            <PencilIcon className="size-4 text-fg-subtle" />
            Rename
          </MenuItem>
          {archived ? (
            <MenuItem onSelect={() => actions.unarchive(workstream)}>
              <UnarchiveIcon className="size-4 text-fg-subtle" />
              Unarchive
            </MenuItem>
          ) : (
            <MenuItem onSelect={() => actions.archive(workstream)}>
              <ArchiveIcon className="size-4 text-fg-subtle" />
              Archive
            </MenuItem>
          )}
          {archived ? (
            <>
              <MenuSeparator />
              <MenuItem onSelect={() => actions.remove(workstream)} className="text-danger">
                <TrashIcon className="size-4" />
                Delete…
              </MenuItem>
            </>
          ) : null}
        </MenuContent>
      </Menu>
    </div>
  );
}

function RenameField({
  workstream,
  maxLength,
  rename,
  onDone,
}: {
  workstream: WorkstreamSummary;
  maxLength: number;
  rename: RowActions["rename"];
  onDone: () => void;
}) {
  const [value, setValue] = useState(workstream.title);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    inputRef.current?.select();
  }, []);

  const finish = async () => {
    if (saving) return;
    const title = value.trim();
    if (title === workstream.title) return onDone();
    if (!title) {
      setError("A workstream needs a title.");
      return;
    }
    setSaving(true);
    const failure = await rename(workstream.id, title);
    setSaving(false);
    if (failure) setError(failure);
    else onDone();
  };

  return (
    <li className="px-0.5">
      <input
        ref={inputRef}
        aria-label={`Rename ${workstream.title}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `rename-error-${workstream.id}` : undefined}
        value={value}
        maxLength={maxLength}
        disabled={saving}
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
        onBlur={() => void finish()}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            void finish();
          } else if (event.key === "Escape") {
            event.preventDefault();
            onDone();
          }
        }}
        className="h-7 w-full rounded-lg border border-accent bg-bg px-2 text-[13px] text-fg shadow-sm ring-3 ring-accent/20 outline-none aria-invalid:border-danger aria-invalid:ring-danger/20"
      />
      {error ? (
        <p
          id={`rename-error-${workstream.id}`}
          role="alert"
          className="mt-1 px-1 text-[12px] text-danger"
        >
          {error}
        </p>
      ) : null}
    </li>
  );
}
