"use client";
// A list of memories that can be edited in place: each shows its text, importance and a line of
// metadata, and (when the caller allows) Edit, Delete and Share. Editing opens a text box and an
// importance picker in the row; Save sends the change and shows the server's refusal, if any, in
// the row. Delete and Share are confirmed by the caller (a dialog), so they only ask here.
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { FormAlert } from "@/components/ui/form-alert";
import { ApiError } from "@/lib/api-client/call-api";

export type MemoryRow = { id: string; text: string; importance: number; meta?: string };

export const textareaClasses = cx(
  "block w-full resize-y rounded-lg border border-border-strong bg-bg px-3 py-2 text-sm leading-6 text-fg shadow-sm shadow-black/5",
  "placeholder:text-fg-subtle transition-[border-color,box-shadow] duration-150",
  "focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25 focus-visible:outline-none",
  "aria-invalid:border-danger",
);

export const selectClasses =
  "h-9 rounded-lg border border-border-strong bg-bg px-2 text-[13px] text-fg focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25 focus-visible:outline-none";

const IMPORTANCE = Array.from({ length: 10 }, (_, index) => index + 1);

export const messageOf = (failure: unknown) =>
  failure instanceof ApiError ? failure.message : "That didn't work. Try again.";

/** 1 (trivia) to 10 (always relevant) as a picker; 7 and up are pre-seeded into every turn. */
export function ImportanceSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number;
  onChange: (value: number) => void;
}) {
  return (
    <select
      id={id}
      value={value}
      title="1 is trivia, 10 always relevant; 7 and up are in every conversation"
      onChange={(event) => onChange(Number(event.target.value))}
      className={selectClasses}
    >
      {IMPORTANCE.map((level) => (
        <option key={level} value={level}>
          {level}
        </option>
      ))}
    </select>
  );
}

/** Characters as the server counts them (code points). */
export function charCount(text: string): number {
  return [...text].length;
}

function MemoryEditor({
  row,
  textMaxChars,
  onSave,
  onDone,
}: {
  row: MemoryRow;
  textMaxChars: number;
  onSave: (change: { text: string; importance: number }) => Promise<void>;
  onDone: () => void;
}) {
  const ids = useId();
  const [text, setText] = useState(row.text);
  const [importance, setImportance] = useState(row.importance);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tooLong = charCount(text) > textMaxChars;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setError("A memory needs some text.");
      return;
    }
    if (tooLong) {
      setError(`A memory holds at most ${textMaxChars.toLocaleString("en")} characters.`);
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onSave({ text: text.trim(), importance });
      onDone();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-2">
      <label htmlFor={`${ids}-text`} className="sr-only">
        Memory text
      </label>
      <textarea
        id={`${ids}-text`}
        value={text}
        rows={3}
        // biome-ignore lint/a11y/noAutofocus: the text box opens because the member asked to edit
        autoFocus
        aria-invalid={tooLong || undefined}
        aria-describedby={`${ids}-count`}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onDone();
        }}
        className={textareaClasses}
      />
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${ids}-importance`} className="text-[13px] text-fg-muted">
          Importance
        </label>
        <ImportanceSelect id={`${ids}-importance`} value={importance} onChange={setImportance} />
        <span
          id={`${ids}-count`}
          className={cx("text-[12px] tabular-nums", tooLong ? "text-danger" : "text-fg-subtle")}
        >
          {charCount(text).toLocaleString("en")} / {textMaxChars.toLocaleString("en")}
        </span>
        <span className="flex-1" />
        <Button variant="ghost" size="sm" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" size="sm" pending={pending}>
          Save
        </Button>
      </div>
      <FormAlert>{error}</FormAlert>
    </form>
  );
}

export function MemoryList({
  label,
  rows,
  textMaxChars,
  empty,
  onSave,
  onDelete,
  onShare,
}: {
  /** The list's accessible name. */
  label: string;
  rows: MemoryRow[];
  textMaxChars: number;
  empty: string;
  /** Without it, rows cannot be edited. */
  onSave?: (row: MemoryRow, change: { text: string; importance: number }) => Promise<void>;
  onDelete?: (row: MemoryRow) => void;
  onShare?: (row: MemoryRow) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  if (rows.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-border px-4 py-6 text-sm text-fg-muted">
        {empty}
      </p>
    );
  }
  return (
    <ul
      aria-label={label}
      className="divide-y divide-border rounded-xl border border-border bg-bg-elevated"
    >
      {rows.map((row) => (
        <li key={row.id} data-memory-id={row.id} className="px-4 py-3">
          {editing === row.id && onSave ? (
            <MemoryEditor
              row={row}
              textMaxChars={textMaxChars}
              onSave={(change) => onSave(row, change)}
              onDone={() => setEditing(null)}
            />
          ) : (
            <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:gap-4">
              <div className="min-w-0 flex-1">
                <p
                  id={`memory-${row.id}`}
                  data-memory-text=""
                  className="text-sm leading-6 break-words whitespace-pre-wrap text-fg"
                >
                  {row.text}
                </p>
                <p className="mt-0.5 text-[12px] text-fg-subtle">
                  Importance {row.importance}
                  {row.meta ? ` · ${row.meta}` : ""}
                </p>
              </div>
              {onSave || onDelete || onShare ? (
                <div className="-ml-2 flex shrink-0 gap-1 sm:ml-0">
                  {onSave ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-describedby={`memory-${row.id}`}
                      onClick={() => setEditing(row.id)}
                    >
                      Edit
                    </Button>
                  ) : null}
                  {onShare ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-describedby={`memory-${row.id}`}
                      onClick={() => onShare(row)}
                    >
                      Share
                    </Button>
                  ) : null}
                  {onDelete ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-describedby={`memory-${row.id}`}
                      onClick={() => onDelete(row)}
                    >
                      Delete
                    </Button>
                  ) : null}
                </div>
              ) : null}
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
