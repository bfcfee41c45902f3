// The sidebar's static parts: section headings, agent tiles and chips, the onboarding card and
// the recent activity list.

import { PinIcon, SparklesIcon as SparkIcon } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import type { ActivityEntry, WorkstreamSummary } from "@/lib/workstreams/types";
import { LastActive, RunningDot } from "./workstream-item";

export function Section({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mt-3 first:mt-0">
      <div className="flex h-7 items-center justify-between gap-2 pl-2">
        <h2 id={id} className="text-xs font-medium text-fg-subtle">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

const TILE_COLORS = [
  "bg-accent-subtle text-accent-text",
  "bg-emerald-500/15 text-emerald-700 dark:text-emerald-300",
  "bg-amber-500/15 text-amber-700 dark:text-amber-300",
  "bg-sky-500/15 text-sky-700 dark:text-sky-300",
  "bg-rose-500/15 text-rose-700 dark:text-rose-300",
];

export function AgentTile({ name, index }: { name: string; index: number }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        "flex size-5 shrink-0 items-center justify-center rounded-md text-[10px] font-semibold",
        TILE_COLORS[index % TILE_COLORS.length],
      )}
    >
      {name.trim()[0]?.toUpperCase() ?? "?"}
    </span>
  );
}

export function CoreTile() {
  return (
    <span
      aria-hidden="true"
      className="flex size-5 shrink-0 items-center justify-center rounded-md bg-bg-muted text-fg-subtle"
    >
      <PinIcon className="size-3" />
    </span>
  );
}

export function OnboardingCard({
  pending,
  error,
  onFinish,
}: {
  pending: boolean;
  error: string | null;
  onFinish: () => void;
}) {
  return (
    <div className="mt-3 rounded-xl border border-border bg-bg-elevated p-3 shadow-sm shadow-black/5">
      <p className="flex items-center gap-1.5 text-[13px] font-medium text-fg">
        <SparkIcon className="size-3.5 text-accent-text" />
        Getting started
      </p>
      <p className="mt-1 text-[12px] leading-[18px] text-fg-muted">
        Tell Chief what you work on. When you're ready, your specialists and core workstreams are
        set up.
      </p>
      <Button size="sm" className="mt-2.5 w-full" pending={pending} onClick={onFinish}>
        Finish onboarding
      </Button>
      {error ? (
        <p role="alert" className="mt-2 text-[12px] text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function ActivityList({ entries, now }: { entries: ActivityEntry[]; now: Date | null }) {
  return (
    <ul className="space-y-px">
      {entries.map((entry) => (
        <li key={entry.workstreamId}>
          {/* One line each: the title, what happened (cut short, whole in the tooltip), when. */}
          <Link
            href={`/w/${encodeURIComponent(entry.workstreamId)}`}
            data-sidebar-item=""
            title={entry.summary}
            className="flex h-7 items-center gap-2 rounded-lg px-2 text-[13px] text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg"
          >
            <span className="min-w-0 flex-1 truncate">
              <span className="text-fg">{entry.title}</span>
              <span className="text-fg-subtle"> · {entry.summary}</span>
            </span>
            <LastActive iso={entry.occurredAt} now={now} />
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** A direct workstream with an agent, as a compact tile in a two-column grid. */
export function AgentChip({
  workstream,
  active,
  index,
}: {
  workstream: WorkstreamSummary;
  active: boolean;
  index: number;
}) {
  return (
    <li className="min-w-0">
      <Link
        href={`/w/${encodeURIComponent(workstream.id)}`}
        data-sidebar-item=""
        data-workstream-id={workstream.id}
        aria-current={active ? "page" : undefined}
        className={cx(
          "flex h-7 min-w-0 items-center gap-2 rounded-lg px-2 text-[13px] transition-colors",
          active
            ? "bg-bg-muted font-medium text-fg"
            : "text-fg-muted hover:bg-bg-muted hover:text-fg",
        )}
      >
        <AgentTile name={workstream.title} index={index} />
        <span className="min-w-0 flex-1 truncate" title={workstream.title}>
          {workstream.title}
        </span>
        <RunningDot running={workstream.isRunning} />
      </Link>
    </li>
  );
}
