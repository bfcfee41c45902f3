"use client";
// The member's Memories page: what the agents remember about them (learned from their
// conversations or remembered on request), which they can search, edit, delete, or share with
// the organization after an explicit confirmation; and the organization's memories, which every
// member's agents use (read-only here: admins manage them).
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, useConfirm } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { useEditableList } from "@/components/ui/use-editable-list";
import { callApi } from "@/lib/api-client/call-api";
import type { OrganizationMemoryView, OwnMemoryView } from "@/lib/memory/views";
import { MemoryList, type MemoryRow, messageOf } from "./memory-list";

type Page<T> = { memories: T[]; hasMore: boolean };

export type MemoriesInitial = {
  own: Page<OwnMemoryView>;
  organization: Page<OrganizationMemoryView>;
};

function updated(iso: string): string {
  return `updated ${new Date(iso).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" })}`;
}

function ownRow(memory: OwnMemoryView, agentNames: Record<string, string>): MemoryRow {
  const parts = [
    memory.scope === "agent" && memory.agentId
      ? `for ${agentNames[memory.agentId] ?? memory.agentId} only`
      : null,
    memory.sourceCount > 0
      ? `from ${memory.sourceCount} message${memory.sourceCount === 1 ? "" : "s"}`
      : null,
    updated(memory.updatedAt),
  ];
  return {
    id: memory.id,
    text: memory.text,
    importance: memory.importance,
    meta: parts.filter(Boolean).join(" · "),
  };
}

function organizationRow(memory: OrganizationMemoryView): MemoryRow {
  return { ...memory, meta: updated(memory.updatedAt) };
}

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function MemoriesView({
  initial,
  organizationName,
  textMaxChars,
  agentNames,
}: {
  initial: MemoriesInitial;
  organizationName: string;
  textMaxChars: number;
  agentNames: Record<string, string>;
}) {
  const own = useEditableList(initial.own.memories, initial.own.hasMore);
  const organization = useEditableList(initial.organization.memories, initial.organization.hasMore);
  const [search, setSearch] = useState("");
  const [applied, setApplied] = useState("");
  const [searching, setSearching] = useState(false);
  const [loadingMore, setLoadingMore] = useState<"own" | "organization" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirm();

  const load = (scope: "mine" | "organization", q: string, before?: string) =>
    callApi<Page<OwnMemoryView & OrganizationMemoryView>>(
      `/api/memories${query({ scope, q: q || undefined, before })}`,
    );

  const runSearch = async (event: FormEvent) => {
    event.preventDefault();
    setSearching(true);
    setError(null);
    try {
      const q = search.trim();
      const [mine, shared] = await Promise.all([load("mine", q), load("organization", q)]);
      own.showPage({ items: mine.memories, hasMore: mine.hasMore });
      organization.showPage({ items: shared.memories, hasMore: shared.hasMore });
      setApplied(q);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSearching(false);
    }
  };

  const loadMore = async (which: "own" | "organization") => {
    const list = which === "own" ? own : organization;
    setLoadingMore(which);
    setError(null);
    try {
      const next = await load(
        which === "own" ? "mine" : "organization",
        applied,
        list.items.at(-1)?.id,
      );
      list.addPage({ items: next.memories, hasMore: next.hasMore });
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setLoadingMore(null);
    }
  };

  const save = async (row: MemoryRow, change: { text: string; importance: number }) => {
    const result = await callApi<{ memory: OwnMemoryView }>(
      `/api/memories/${encodeURIComponent(row.id)}`,
      {
        method: "PATCH",
        json: change,
      },
    );
    own.replace(result.memory);
  };

  const remove = (row: MemoryRow) => {
    confirm.ask({
      title: "Delete this memory?",
      body: "Your agents will no longer know it. This cannot be undone.",
      confirmLabel: "Delete memory",
      tone: "danger",
      onConfirm: async () => {
        await callApi(`/api/memories/${encodeURIComponent(row.id)}`, { method: "DELETE" });
        own.drop(row.id);
      },
    });
  };

  const share = (row: MemoryRow) => {
    confirm.ask({
      title: `Share with everyone in ${organizationName}?`,
      body: (
        <>
          <span className="block rounded-lg bg-bg-muted px-3 py-2 text-fg">“{row.text}”</span>
          <span className="mt-2 block">
            Every member's agents will use it, and admins can edit or delete it. It stops being
            yours alone.
          </span>
        </>
      ),
      confirmLabel: "Share memory",
      onConfirm: async () => {
        const result = await callApi<{ memory: OrganizationMemoryView }>(
          `/api/memories/${encodeURIComponent(row.id)}/share`,
          { method: "POST", json: { confirm: true } },
        );
        own.drop(row.id);
        organization.putFirst(result.memory);
      },
    });
  };

  return (
    <div className="space-y-8">
      <search>
        <form onSubmit={(event) => void runSearch(event)} className="flex max-w-xl gap-2">
          <label htmlFor="memory-search" className="sr-only">
            Search memories
          </label>
          <Input
            id="memory-search"
            type="search"
            value={search}
            placeholder="Search memories"
            maxLength={200}
            onChange={(event) => setSearch(event.target.value)}
          />
          <Button type="submit" variant="secondary" size="lg" pending={searching}>
            Search
          </Button>
        </form>
      </search>
      <FormAlert>{error}</FormAlert>

      <section aria-labelledby="own-memories-title" className="space-y-3">
        <div>
          <h2 id="own-memories-title" className="text-base font-semibold text-fg">
            Your memories
          </h2>
          <p className="mt-0.5 text-[13px] text-fg-muted">
            Learned from your conversations or remembered when you asked. Only your agents use them;
            admins never see them.
          </p>
        </div>
        <MemoryList
          label="Your memories"
          rows={own.items.map((memory) => ownRow(memory, agentNames))}
          textMaxChars={textMaxChars}
          empty={
            applied
              ? "None of your memories match that search."
              : "Nothing yet. As you tell your agents about yourself and your work, what they learn shows up here."
          }
          onSave={save}
          onDelete={remove}
          onShare={share}
        />
        {own.hasMore ? (
          <Button
            variant="secondary"
            size="sm"
            pending={loadingMore === "own"}
            onClick={() => void loadMore("own")}
          >
            Load more
          </Button>
        ) : null}
      </section>

      <section aria-labelledby="organization-memories-title" className="space-y-3">
        <div>
          <h2 id="organization-memories-title" className="text-base font-semibold text-fg">
            Organization memories
          </h2>
          <p className="mt-0.5 text-[13px] text-fg-muted">
            Shared with everyone in {organizationName}; every member's agents use them. Admins
            manage them.
          </p>
        </div>
        <MemoryList
          label="Organization memories"
          rows={organization.items.map(organizationRow)}
          textMaxChars={textMaxChars}
          empty={
            applied
              ? "No organization memory matches that search."
              : "No organization memories yet."
          }
        />
        {organization.hasMore ? (
          <Button
            variant="secondary"
            size="sm"
            pending={loadingMore === "organization"}
            onClick={() => void loadMore("organization")}
          >
            Load more
          </Button>
        ) : null}
      </section>

      <ConfirmDialog {...confirm.dialog} />
    </div>
  );
}
