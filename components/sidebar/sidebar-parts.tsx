// The sidebar's static parts: section headings, agent tiles, the onboarding card and the recent
// activity list.
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import type { ActivityEntry } from "@/lib/workstreams/types";
import { PinIcon, SparkIcon } from "./icons";
import { LastActive } from "./workstream-row";

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
    <section aria-labelledby={id} className="mt-5 first:mt-0">
      <div className="flex h-7 items-center justify-between gap-2 px-2">
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
          <Link
            href={`/w/${encodeURIComponent(entry.workstreamId)}`}
            data-sidebar-item=""
            className="block rounded-lg px-2 py-1.5 text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg"
          >
            <span className="flex items-center gap-2">
              <span className="min-w-0 flex-1 truncate text-[13px] text-fg">{entry.title}</span>
              <LastActive iso={entry.occurredAt} now={now} />
            </span>
            <span className="mt-0.5 block truncate text-[12px] text-fg-subtle">
              {entry.summary}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
