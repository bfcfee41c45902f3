"use client";
// The form that adds or edits one item of the workstream state: its text, and what its list adds
// (a decision's rationale and confidence, a task's status, whether a constraint binds). Enter
// saves, Shift+Enter adds a line, Escape cancels. A refused save keeps the draft and says why.
import { type Ref, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { FormAlert } from "@/components/ui/form-alert";
import { ChatRequestError } from "@/lib/chat-client/wire";
import type { StateListName } from "@/lib/state/schema";
import { type Draft, editErrorSentence } from "./edit";
import { STATE_LIST_LABELS, TASK_STATUS_LABELS, TASK_STATUS_ORDER } from "./labels";

const fieldClasses =
  "block w-full rounded-lg border border-border-strong bg-bg px-2.5 py-1.5 text-[13px] leading-5 text-fg shadow-sm shadow-black/5 " +
  "placeholder:text-fg-subtle transition-[border-color,box-shadow] duration-150 " +
  "focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25 " +
  "aria-invalid:border-danger aria-invalid:focus-visible:ring-danger/20";

const labelClasses = "mb-1 block text-xs font-medium text-fg-muted";

export function StateItemForm({
  list,
  initial,
  mode,
  maxChars,
  onSave,
  onCancel,
}: {
  list: StateListName;
  initial: Draft;
  mode: "add" | "edit";
  maxChars: number;
  /** Saves the draft; throws the server's refusal, which the form shows. */
  onSave: (draft: Draft) => Promise<void>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const label = STATE_LIST_LABELS[list];
  const change = (fields: Partial<Draft>) => setDraft((current) => ({ ...current, ...fields }));

  const submit = async () => {
    if (saving || !draft.text.trim()) return;
    setSaving(true);
    setError(null);
    try {
      await onSave(draft);
    } catch (failure) {
      setError(
        failure instanceof ChatRequestError
          ? editErrorSentence(failure)
          : "Saving failed. Please try again.",
      );
      setSaving(false);
      // The pending button lost focus when it was disabled: back to the text, to fix it.
      requestAnimationFrame(() => textRef.current?.focus());
    }
  };

  return (
    <form
      // Escape here cancels the edit; the sheet around it stays open (see ContextSheet).
      data-escape-cancels=""
      aria-label={mode === "add" ? `New ${label.noun}` : `Edit ${label.noun}`}
      className="space-y-2.5 rounded-lg border border-border bg-bg-elevated p-2.5 shadow-sm shadow-black/5"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape" && !saving) {
          // Handled here: not a page shortcut (stopping the reply) and not the sheet's close.
          event.preventDefault();
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <div>
        <label htmlFor={`${id}-text`} className={labelClasses}>
          {label.noun.charAt(0).toUpperCase() + label.noun.slice(1)}
        </label>
        <TextArea
          ref={textRef}
          id={`${id}-text`}
          value={draft.text}
          onChange={(text) => change({ text })}
          onEnter={() => void submit()}
          maxChars={maxChars}
          autoFocus
        />
      </div>
      {list === "keyDecisions" ? (
        <>
          <div>
            <label htmlFor={`${id}-rationale`} className={labelClasses}>
              Rationale
            </label>
            <TextArea
              id={`${id}-rationale`}
              value={draft.rationale}
              onChange={(rationale) => change({ rationale })}
              onEnter={() => void submit()}
              maxChars={maxChars}
              placeholder="Why this was decided"
            />
          </div>
          <div className="flex items-center gap-2">
            <label htmlFor={`${id}-confidence`} className="text-xs font-medium text-fg-muted">
              Confidence
            </label>
            <input
              id={`${id}-confidence`}
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              step={5}
              value={Number.isFinite(draft.confidence) ? draft.confidence : ""}
              onChange={(event) => change({ confidence: event.target.valueAsNumber })}
              className={cx(fieldClasses, "w-20 tabular-nums")}
            />
            <span className="text-xs text-fg-muted">%</span>
          </div>
        </>
      ) : null}
      {list === "tasks" ? (
        <div className="flex items-center gap-2">
          <label htmlFor={`${id}-status`} className="text-xs font-medium text-fg-muted">
            Status
          </label>
          <select
            id={`${id}-status`}
            value={draft.status}
            onChange={(event) => change({ status: event.target.value as Draft["status"] })}
            className={cx(fieldClasses, "w-auto py-1")}
          >
            {TASK_STATUS_ORDER.map((status) => (
              <option key={status} value={status}>
                {TASK_STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {list === "activeConstraints" ? (
        <label className="flex items-center gap-2 text-xs text-fg-muted">
          <input
            type="checkbox"
            checked={draft.binding}
            onChange={(event) => change({ binding: event.target.checked })}
            className="size-4 accent-accent"
          />
          Binding (agreed, not only proposed)
        </label>
      ) : null}
      <FormAlert>{error}</FormAlert>
      <div className="flex items-center justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" size="sm" pending={saving} disabled={!draft.text.trim()}>
          {mode === "add" ? "Add" : "Save"}
        </Button>
      </div>
    </form>
  );
}

function TextArea({
  ref,
  id,
  value,
  onChange,
  onEnter,
  maxChars,
  placeholder,
  autoFocus,
}: {
  ref?: Ref<HTMLTextAreaElement>;
  id: string;
  value: string;
  onChange: (value: string) => void;
  onEnter: () => void;
  maxChars: number;
  placeholder?: string;
  autoFocus?: boolean;
}) {
  const length = value.trim().length;
  const over = length > maxChars;
  return (
    <>
      <textarea
        ref={ref}
        id={id}
        value={value}
        rows={2}
        placeholder={placeholder}
        // biome-ignore lint/a11y/noAutofocus: the form opens because the member asked to write in it.
        autoFocus={autoFocus}
        aria-invalid={over || undefined}
        aria-describedby={over ? `${id}-count` : undefined}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            onEnter();
          }
        }}
        className={cx(fieldClasses, "field-sizing-content max-h-48 min-h-[3.25rem] resize-none")}
      />
      {/* The count shows near the limit; over it, it says by how much (the server refuses). */}
      {length > maxChars * 0.8 ? (
        <p
          id={`${id}-count`}
          className={cx(
            "mt-1 text-right text-xs tabular-nums",
            over ? "text-danger" : "text-fg-subtle",
          )}
        >
          {length} / {maxChars}
        </p>
      ) : null}
    </>
  );
}
