"use client";
import {
  ArchiveIcon,
  EllipsisIcon as MoreIcon,
  SquareIcon as StopIcon,
  Trash2Icon as TrashIcon,
  ArchiveRestoreIcon as UnarchiveIcon,
} from "lucide-react";
import { AdminRunsButton } from "@/components/inspector/admin-runs-button";
import { LastActive, RunningDot } from "@/components/sidebar/workstream-item";
import { Button } from "@/components/ui/button";
// The admin workstream list: a table from 1024px up, cards below. Each row shows owner, kind,
// status, last activity, running state, messages, tokens and cost; a running workstream has a
// Stop button and group workstreams a menu (archive, unarchive, delete).
import { cx } from "@/components/ui/class-names";
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from "@/components/ui/menu";
import type { AdminWorkstream } from "@/lib/admin/workstreams";
import { formatCost, formatTokens, formatWithoutUsage, KIND_LABELS, kindOf } from "./format";

export type RowHandlers = {
  stop(workstream: AdminWorkstream): void;
  archive(workstream: AdminWorkstream): void;
  unarchive(workstream: AdminWorkstream): void;
  remove(workstream: AdminWorkstream): void;
};

function Badge({
  children,
  tone = "muted",
}: {
  children: string;
  tone?: "muted" | "accent" | "warn";
}) {
  return (
    <span
      className={cx(
        "inline-flex h-5 shrink-0 items-center rounded-md border px-1.5 text-[11px] font-medium",
        tone === "muted" && "border-border bg-bg-muted text-fg-muted",
        tone === "accent" && "border-transparent bg-accent-subtle text-accent-text",
        tone === "warn" && "border-transparent bg-amber-500/15 text-amber-700 dark:text-amber-300",
      )}
    >
      {children}
    </span>
  );
}

function Owner({ owner }: { owner: AdminWorkstream["owner"] }) {
  if (!owner) return <span className="text-fg-subtle">Deleted account</span>;
  return (
    <span className="flex min-w-0 flex-col">
      <span className="flex items-center gap-1.5">
        <span className="truncate text-fg" title={owner.name}>
          {owner.name}
        </span>
        {owner.isMember ? null : <Badge tone="warn">Former member</Badge>}
      </span>
      <span className="truncate text-[12px] text-fg-subtle" title={owner.email}>
        {owner.email}
      </span>
    </span>
  );
}

function Status({ workstream }: { workstream: AdminWorkstream }) {
  if (workstream.isRunning) {
    return (
      <span className="flex items-center gap-1.5 text-accent-text">
        <RunningDot running />
        <span aria-hidden="true">Running</span>
      </span>
    );
  }
  return workstream.status === "archived" ? (
    <span className="text-fg-subtle">Archived</span>
  ) : (
    <span className="text-fg-muted">Active</span>
  );
}

function Actions({ workstream, handlers }: { workstream: AdminWorkstream; handlers: RowHandlers }) {
  const group = kindOf(workstream) === "group";
  return (
    <div className="flex items-center justify-end gap-1">
      <AdminRunsButton workstream={workstream} />
      {workstream.isRunning ? (
        <Button variant="secondary" size="sm" onClick={() => handlers.stop(workstream)}>
          <StopIcon className="size-3.5" />
          Stop
        </Button>
      ) : null}
      {group ? (
        <Menu>
          <MenuTrigger
            aria-label={`Actions for ${workstream.title}`}
            className="flex size-8 items-center justify-center rounded-lg text-fg-subtle hover:bg-bg-muted hover:text-fg aria-expanded:bg-bg-muted"
          >
            <MoreIcon />
          </MenuTrigger>
          <MenuContent align="end" className="w-44!">
            {workstream.status === "archived" ? (
              <>
                <MenuItem onSelect={() => handlers.unarchive(workstream)}>
                  <UnarchiveIcon className="size-4 text-fg-subtle" />
                  Unarchive
                </MenuItem>
                <MenuSeparator />
                <MenuItem onSelect={() => handlers.remove(workstream)} className="text-danger">
                  <TrashIcon className="size-4" />
                  Delete…
                </MenuItem>
              </>
            ) : (
              <MenuItem onSelect={() => handlers.archive(workstream)}>
                <ArchiveIcon className="size-4 text-fg-subtle" />
                Archive…
              </MenuItem>
            )}
          </MenuContent>
        </Menu>
      ) : (
        <span
          className="size-8"
          title="Direct and core workstreams cannot be archived or deleted"
        />
      )}
    </div>
  );
}

/** True when every answered turn's usage is unknown: the sums would read as free. */
function onlyUnknown(workstream: AdminWorkstream): boolean {
  return workstream.turnsWithoutUsage > 0 && workstream.inputTokens + workstream.outputTokens === 0;
}

function Usage({ workstream }: { workstream: AdminWorkstream }) {
  const unknown = workstream.turnsWithoutUsage
    ? `; ${formatWithoutUsage(workstream.turnsWithoutUsage)}`
    : "";
  return (
    <span
      title={`${workstream.inputTokens.toLocaleString()} input, ${workstream.outputTokens.toLocaleString()} output tokens${unknown}`}
    >
      {onlyUnknown(workstream)
        ? "—"
        : formatTokens(workstream.inputTokens + workstream.outputTokens)}
      {workstream.turnsWithoutUsage && !onlyUnknown(workstream) ? "+" : ""}
    </span>
  );
}

function Cost({ workstream }: { workstream: AdminWorkstream }) {
  return <>{onlyUnknown(workstream) ? "—" : formatCost(workstream.costUsd)}</>;
}

export function WorkstreamTable({
  workstreams,
  now,
  handlers,
}: {
  workstreams: AdminWorkstream[];
  now: Date | null;
  handlers: RowHandlers;
}) {
  return (
    <>
      <table className="hidden w-full text-left text-[13px] lg:table">
        <thead>
          <tr className="border-b border-border text-[12px] text-fg-subtle">
            <th scope="col" className="py-2 pr-3 font-medium">
              Workstream
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Owner
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Status
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Last active
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Messages
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Tokens
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Cost
            </th>
            <th scope="col" className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {workstreams.map((workstream) => (
            <tr
              key={workstream.id}
              data-admin-workstream={workstream.id}
              className="border-b border-border last:border-0"
            >
              <td className="max-w-64 py-2.5 pr-3">
                <span className="flex items-center gap-2">
                  <span className="truncate font-medium text-fg" title={workstream.title}>
                    {workstream.title}
                  </span>
                  <Badge tone={workstream.core ? "accent" : "muted"}>
                    {KIND_LABELS[kindOf(workstream)]}
                  </Badge>
                </span>
              </td>
              <td className="max-w-56 py-2.5 pr-3">
                <Owner owner={workstream.owner} />
              </td>
              <td className="py-2.5 pr-3">
                <Status workstream={workstream} />
              </td>
              <td className="py-2.5 pr-3 text-fg-muted">
                <LastActive iso={workstream.lastActivityAt} now={now} className="text-[13px]" />
              </td>
              <td className="py-2.5 pr-3 text-right tabular-nums text-fg-muted">
                {workstream.messageCount}
              </td>
              <td className="py-2.5 pr-3 text-right tabular-nums text-fg-muted">
                <Usage workstream={workstream} />
              </td>
              <td className="py-2.5 pr-3 text-right tabular-nums text-fg-muted">
                <Cost workstream={workstream} />
              </td>
              <td className="py-1.5">
                <Actions workstream={workstream} handlers={handlers} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <ul className="space-y-2 lg:hidden">
        {workstreams.map((workstream) => (
          <li
            key={workstream.id}
            data-admin-workstream={workstream.id}
            className="rounded-xl border border-border bg-bg-elevated p-3 text-[13px]"
          >
            <div className="flex items-start gap-2">
              <div className="min-w-0 flex-1">
                <p className="flex items-center gap-2">
                  <span className="truncate font-medium text-fg" title={workstream.title}>
                    {workstream.title}
                  </span>
                  <Badge tone={workstream.core ? "accent" : "muted"}>
                    {KIND_LABELS[kindOf(workstream)]}
                  </Badge>
                </p>
                <div className="mt-1.5">
                  <Owner owner={workstream.owner} />
                </div>
              </div>
              <Actions workstream={workstream} handlers={handlers} />
            </div>
            <dl className="mt-3 grid grid-cols-3 gap-2 text-[12px]">
              <div>
                <dt className="text-fg-subtle">Status</dt>
                <dd className="mt-0.5">
                  <Status workstream={workstream} />
                </dd>
              </div>
              <div>
                <dt className="text-fg-subtle">Last active</dt>
                <dd className="mt-0.5 text-fg-muted">
                  <LastActive iso={workstream.lastActivityAt} now={now} />
                </dd>
              </div>
              <div>
                <dt className="text-fg-subtle">Usage</dt>
                <dd className="mt-0.5 tabular-nums text-fg-muted">
                  {workstream.messageCount} msgs · <Usage workstream={workstream} /> tok ·{" "}
                  <Cost workstream={workstream} />
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
