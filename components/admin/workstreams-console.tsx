"use client";
// The admin console's workstreams: headline numbers, search and filters, the list with its
// actions (stop a running turn; archive, unarchive and delete group workstreams), kept current
// by the organization's live channel.

import { SearchIcon } from "lucide-react";
import { useState } from "react";
import { useNow } from "@/components/sidebar/use-now";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, type ConfirmRequest, useConfirm } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import type { AdminWorkstream } from "@/lib/admin/workstreams";
import { ApiError, callApi } from "@/lib/api-client/call-api";
import { formatCost, formatTokens, formatWithoutUsage } from "./format";
import { type AdminListData, useAdminWorkstreams } from "./use-admin-workstreams";
import { type RowHandlers, WorkstreamTable } from "./workstream-table";

const selectClasses =
  "h-9 rounded-lg border border-border-strong bg-bg px-2.5 text-sm text-fg shadow-sm shadow-black/5 focus-visible:border-accent";

function Stat({
  label,
  value,
  detail,
  hint,
}: {
  label: string;
  value: string;
  detail?: string;
  hint?: string;
}) {
  return (
    <div className="rounded-xl border border-border bg-bg-elevated px-3.5 py-3">
      <dt className="text-[12px] text-fg-subtle">{label}</dt>
      <dd className="mt-1 flex items-baseline gap-1.5" title={hint}>
        <span className="text-lg font-semibold tracking-tight text-fg tabular-nums">{value}</span>
        {detail ? <span className="text-[12px] text-fg-subtle">{detail}</span> : null}
      </dd>
    </div>
  );
}

const path = (workstream: AdminWorkstream, action = "") =>
  `/api/admin/workstreams/${encodeURIComponent(workstream.id)}${action}`;

export function WorkstreamsConsole({
  initial,
  searchMaxChars,
}: {
  initial: AdminListData;
  /** The longest search text the server takes. */
  searchMaxChars: number;
}) {
  const list = useAdminWorkstreams(initial);
  const { data, filters } = list;
  const now = useNow();
  const confirm = useConfirm();
  const [actionError, setActionError] = useState<string | null>(null);

  const act = (request: Omit<ConfirmRequest, "onConfirm">, run: () => Promise<unknown>) => {
    confirm.ask({
      ...request,
      onConfirm: async () => {
        await run();
        await list.reload();
      },
    });
  };

  const handlers: RowHandlers = {
    stop: (workstream) =>
      act(
        {
          title: `Stop the turn in “${workstream.title}”?`,
          body: "The agent stops now; what it wrote so far is kept. The owner sees it was stopped.",
          confirmLabel: "Stop turn",
          tone: "danger",
        },
        () => callApi(path(workstream, "/stop"), { method: "POST" }),
      ),
    archive: (workstream) =>
      act(
        {
          title: `Archive “${workstream.title}”?`,
          body: "It leaves its owner's list and takes no new messages until it is unarchived.",
          confirmLabel: "Archive",
        },
        () => callApi(path(workstream, "/archive"), { method: "POST" }),
      ),
    remove: (workstream) =>
      act(
        {
          title: `Delete “${workstream.title}”?`,
          body: "Its messages, runs and memory are deleted for good, for its owner too.",
          confirmLabel: "Delete",
          tone: "danger",
        },
        () => callApi(path(workstream), { method: "DELETE" }),
      ),
    unarchive: (workstream) => {
      setActionError(null);
      callApi(path(workstream, "/unarchive"), { method: "POST" })
        .then(() => list.reload())
        .catch((failure: unknown) =>
          setActionError(failure instanceof ApiError ? failure.message : "Couldn't unarchive."),
        );
    },
  };

  const { overview } = data;
  const filtered =
    filters.q || filters.kind !== "all" || filters.status !== "all" || filters.running;
  return (
    <div>
      <dl className="grid grid-cols-2 gap-2 md:grid-cols-4">
        <Stat label="Workstreams" value={String(overview.workstreams)} />
        <Stat label="Running now" value={String(overview.running)} />
        <Stat label="Members" value={String(overview.members)} />
        <Stat
          label="Usage"
          value={formatTokens(overview.inputTokens + overview.outputTokens)}
          detail={`tokens · ${formatCost(overview.costUsd)}${
            overview.turnsWithoutUsage ? ` · ${formatWithoutUsage(overview.turnsWithoutUsage)}` : ""
          }`}
          hint={`${overview.inputTokens.toLocaleString()} input, ${overview.outputTokens.toLocaleString()} output tokens`}
        />
      </dl>

      <div className="mt-6 flex flex-wrap items-center gap-2">
        <label className="relative min-w-0 flex-1 basis-56">
          <span className="sr-only">Search workstreams</span>
          <SearchIcon className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-fg-subtle" />
          <input
            type="search"
            value={filters.q}
            maxLength={searchMaxChars}
            placeholder="Search titles, owners, emails"
            onChange={(event) => list.setFilter("q", event.target.value)}
            className="h-9 w-full rounded-lg border border-border-strong bg-bg pr-3 pl-8 text-sm text-fg shadow-sm shadow-black/5 placeholder:text-fg-subtle focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25"
          />
        </label>
        <select
          aria-label="Kind"
          value={filters.kind}
          onChange={(event) => list.setFilter("kind", event.target.value as typeof filters.kind)}
          className={selectClasses}
        >
          <option value="all">All kinds</option>
          <option value="direct">Direct</option>
          <option value="group">Group</option>
          <option value="core">Core</option>
        </select>
        <select
          aria-label="Status"
          value={filters.status}
          onChange={(event) =>
            list.setFilter("status", event.target.value as typeof filters.status)
          }
          className={selectClasses}
        >
          <option value="all">Any status</option>
          <option value="regular">Active</option>
          <option value="archived">Archived</option>
        </select>
        <label className="flex h-9 items-center gap-2 rounded-lg px-1.5 text-sm text-fg-muted">
          <input
            type="checkbox"
            checked={filters.running}
            onChange={(event) => list.setFilter("running", event.target.checked)}
            className="size-4 accent-[var(--accent)]"
          />
          Running only
        </label>
        <span
          className="ml-auto flex items-center gap-2 text-[13px] text-fg-subtle"
          aria-live="polite"
        >
          {list.loading ? <Spinner className="size-3.5" /> : null}
          {data.total === 1 ? "1 workstream" : `${data.total} workstreams`}
        </span>
      </div>

      <FormAlert className="mt-3">{list.error ?? actionError}</FormAlert>

      <div className="mt-3">
        {data.workstreams.length === 0 ? (
          <div className="rounded-xl border border-dashed border-border-strong px-6 py-12 text-center">
            <p className="text-sm font-medium text-fg">
              {filtered ? "No workstreams match" : "No workstreams yet"}
            </p>
            <p className="mt-1 text-[13px] text-fg-muted">
              {filtered
                ? "Try other filters or a shorter search."
                : "Workstreams your members start will be listed here."}
            </p>
            {filtered ? (
              <Button variant="secondary" size="sm" className="mt-3" onClick={list.clearFilters}>
                Clear filters
              </Button>
            ) : null}
          </div>
        ) : (
          <WorkstreamTable workstreams={data.workstreams} now={now} handlers={handlers} />
        )}
      </div>

      {data.page > 1 || data.hasMore ? (
        <div className="mt-4 flex items-center justify-between text-[13px] text-fg-muted">
          <Button
            variant="secondary"
            size="sm"
            disabled={data.page <= 1}
            onClick={() => list.setPage(data.page - 1)}
          >
            Previous
          </Button>
          <span>Page {data.page}</span>
          <Button
            variant="secondary"
            size="sm"
            disabled={!data.hasMore}
            onClick={() => list.setPage(data.page + 1)}
          >
            Next
          </Button>
        </div>
      ) : null}

      <ConfirmDialog {...confirm.dialog} />
    </div>
  );
}
