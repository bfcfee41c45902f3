"use client";
// The admin console's organization memories: what every member's agents know about the
// organization. Admins add, search, edit and delete them. Members' own memories never appear here
// (the API does not return them to anyone but their member).
import { type FormEvent, useId, useState } from "react";
import {
  charCount,
  ImportanceSelect,
  MemoryList,
  type MemoryRow,
  messageOf,
  textareaClasses,
} from "@/components/memory/memory-list";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { ConfirmDialog, useConfirm } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { useEditableList } from "@/components/ui/use-editable-list";
import { callApi } from "@/lib/api-client/call-api";
import type { OrganizationMemoryView } from "@/lib/memory/views";

type Page = { memories: OrganizationMemoryView[]; hasMore: boolean };

function rowOf(memory: OrganizationMemoryView): MemoryRow {
  const day = new Date(memory.updatedAt).toLocaleDateString("en", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
  return {
    id: memory.id,
    text: memory.text,
    importance: memory.importance,
    meta: `updated ${day}`,
  };
}

function AddMemoryForm({
  textMaxChars,
  onAdded,
}: {
  textMaxChars: number;
  onAdded: (memory: OrganizationMemoryView, merged: boolean) => void;
}) {
  const ids = useId();
  const [text, setText] = useState("");
  const [importance, setImportance] = useState(7);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const tooLong = charCount(text) > textMaxChars;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNote(null);
    if (!text.trim()) {
      setError("Write the fact every member's agents should know.");
      return;
    }
    if (tooLong) {
      setError(`A memory holds at most ${textMaxChars.toLocaleString("en")} characters.`);
      return;
    }
    setPending(true);
    setError(null);
    try {
      const result = await callApi<{ memory: OrganizationMemoryView; merged: boolean }>(
        "/api/admin/memories",
        { method: "POST", json: { text: text.trim(), importance } },
      );
      onAdded(result.memory, result.merged);
      setNote(
        result.merged
          ? "The organization already has this memory; it is listed first."
          : "Added. Every member's agents can use it from their next message.",
      );
      setText("");
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <section
      aria-labelledby={`${ids}-title`}
      className="rounded-xl border border-border bg-bg-elevated p-4"
    >
      <h2 id={`${ids}-title`} className="text-sm font-semibold text-fg">
        Add an organization memory
      </h2>
      <p className="mt-1 text-[13px] text-fg-muted">
        A fact, policy or preference of the organization. Importance 7 and up is in every
        conversation; lower ones come up when they match.
      </p>
      <form onSubmit={(event) => void submit(event)} className="mt-3 space-y-3">
        <div className="space-y-1">
          <label htmlFor={`${ids}-text`} className="text-[13px] font-medium text-fg">
            New organization memory
          </label>
          <textarea
            id={`${ids}-text`}
            value={text}
            rows={3}
            placeholder="e.g. Invoices go out on the first working day of the month."
            aria-invalid={tooLong || undefined}
            aria-describedby={`${ids}-count`}
            onChange={(event) => setText(event.target.value)}
            className={textareaClasses}
          />
          <p
            id={`${ids}-count`}
            className={cx(
              "text-right text-[12px] tabular-nums",
              tooLong ? "text-danger" : "text-fg-subtle",
            )}
          >
            {charCount(text).toLocaleString("en")} / {textMaxChars.toLocaleString("en")}
          </p>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="flex items-center gap-2">
            <label htmlFor={`${ids}-importance`} className="text-[13px] text-fg-muted">
              Importance
            </label>
            <ImportanceSelect
              id={`${ids}-importance`}
              value={importance}
              onChange={setImportance}
            />
          </span>
          <Button type="submit" pending={pending}>
            Add memory
          </Button>
        </div>
        <FormAlert>{error}</FormAlert>
        <p aria-live="polite" className="text-[13px] text-fg-muted">
          {note}
        </p>
      </form>
    </section>
  );
}

export function MemoriesConsole({
  initial,
  textMaxChars,
}: {
  initial: Page;
  textMaxChars: number;
}) {
  const list = useEditableList(initial.memories, initial.hasMore);
  const [search, setSearch] = useState("");
  const [applied, setApplied] = useState("");
  const [searching, setSearching] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirm();

  const load = (q: string, before?: string) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (before) params.set("before", before);
    const text = params.toString();
    return callApi<Page>(`/api/admin/memories${text ? `?${text}` : ""}`);
  };

  const runSearch = async (event: FormEvent) => {
    event.preventDefault();
    setSearching(true);
    setError(null);
    try {
      const q = search.trim();
      const first = await load(q);
      list.showPage({ items: first.memories, hasMore: first.hasMore });
      setApplied(q);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSearching(false);
    }
  };

  const loadMore = async () => {
    setLoadingMore(true);
    setError(null);
    try {
      const next = await load(applied, list.items.at(-1)?.id);
      list.addPage({ items: next.memories, hasMore: next.hasMore });
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setLoadingMore(false);
    }
  };

  const save = async (row: MemoryRow, change: { text: string; importance: number }) => {
    const result = await callApi<{ memory: OrganizationMemoryView }>(
      `/api/admin/memories/${encodeURIComponent(row.id)}`,
      { method: "PATCH", json: change },
    );
    list.replace(result.memory);
  };

  const remove = (row: MemoryRow) => {
    confirm.ask({
      title: "Delete this organization memory?",
      body: "No member's agents will know it any more. This cannot be undone.",
      confirmLabel: "Delete memory",
      tone: "danger",
      onConfirm: async () => {
        await callApi(`/api/admin/memories/${encodeURIComponent(row.id)}`, { method: "DELETE" });
        list.drop(row.id);
      },
    });
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <section aria-labelledby="organization-memories-title" className="min-w-0 space-y-3">
        <div>
          <h2 id="organization-memories-title" className="text-sm font-semibold text-fg">
            Organization memories
          </h2>
          <p className="mt-0.5 text-[13px] text-fg-muted">
            Every member's agents use these. Members' own memories stay with them and are not
            listed.
          </p>
        </div>
        <search>
          <form onSubmit={(event) => void runSearch(event)} className="flex gap-2">
            <label htmlFor="admin-memory-search" className="sr-only">
              Search organization memories
            </label>
            <Input
              id="admin-memory-search"
              type="search"
              value={search}
              maxLength={200}
              placeholder="Search organization memories"
              onChange={(event) => setSearch(event.target.value)}
            />
            <Button type="submit" variant="secondary" size="lg" pending={searching}>
              Search
            </Button>
          </form>
        </search>
        <FormAlert>{error}</FormAlert>
        <MemoryList
          label="Organization memories"
          rows={list.items.map(rowOf)}
          textMaxChars={textMaxChars}
          empty={
            applied
              ? "No organization memory matches that search."
              : "No organization memories yet. Add what every member's agents should know."
          }
          onSave={save}
          onDelete={remove}
        />
        {list.hasMore ? (
          <Button
            variant="secondary"
            size="sm"
            pending={loadingMore}
            onClick={() => void loadMore()}
          >
            Load more
          </Button>
        ) : null}
      </section>
      <div>
        <AddMemoryForm textMaxChars={textMaxChars} onAdded={(memory) => list.putFirst(memory)} />
      </div>
      <ConfirmDialog {...confirm.dialog} />
    </div>
  );
}
