"use client";
// The workstreams sidebar: "New workstream", onboarding, direct agents, core workstreams, recent
// activity and group workstreams (15 a page, more on scroll, archived on request), kept live by
// the member's live channel (state in SidebarProvider). The server layout loads the first paint
// (lib/workstreams/sidebar).

import { BrainIcon, ListChecksIcon, PlusIcon, ShieldIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { ActivityList, AgentChip, CoreTile, OnboardingCard, Section } from "./sidebar-parts";
import { useSidebarContext } from "./sidebar-provider";
import { shownActivity } from "./sidebar-state";
import { useNow } from "./use-now";
import { sidebarKeyHandler } from "./use-sidebar-keys";
import { WorkstreamItem } from "./workstream-item";

const PAGE_LINK =
  "flex h-8 items-center gap-2 rounded-lg px-2 text-[13px] text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg aria-[current=page]:bg-bg-muted aria-[current=page]:font-medium aria-[current=page]:text-fg";

export function WorkstreamsSidebar() {
  const { data, sidebar } = useSidebarContext();
  const { state, actions } = sidebar;
  const now = useNow();
  const pathname = usePathname();
  const rootRef = useRef<HTMLDivElement>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const lastEdited = useRef<string | null>(null);
  const activity = shownActivity(state);
  const agentIndex = new Map(data.agents.map((agent, index) => [agent.id, index]));

  // After an inline rename, focus goes back to the workstream's link.
  useEffect(() => {
    if (editingId !== null) {
      lastEdited.current = editingId;
      return;
    }
    const id = lastEdited.current;
    lastEdited.current = null;
    if (id)
      rootRef.current
        ?.querySelector<HTMLElement>(`[data-workstream-id="${CSS.escape(id)}"]`)
        ?.focus();
  }, [editingId]);

  const rowProps = (id: string) => ({
    active: sidebar.currentId === id,
    now,
    editing: editingId === id,
    onEditingChange: (editing: boolean) => setEditingId(editing ? id : null),
    titleMaxChars: data.titleMaxChars,
  });

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between the links inside
    <div ref={rootRef} className="flex flex-col" onKeyDown={sidebarKeyHandler(setEditingId)}>
      {sidebar.error ? (
        <p
          role="alert"
          className="mt-2 flex items-start gap-2 rounded-lg border border-danger-border bg-danger-subtle px-2.5 py-1.5 text-[12px] text-danger"
        >
          <span className="flex-1">{sidebar.error}</span>
          <button type="button" className="font-medium underline" onClick={sidebar.dismissError}>
            Dismiss
          </button>
        </p>
      ) : null}
      {state.onboarding === "onboarding" ? (
        <OnboardingCard
          pending={sidebar.finishing}
          error={null}
          onFinish={() => void sidebar.finishOnboarding()}
        />
      ) : null}

      {/* Dense on purpose: the group list starts in the top half of a laptop screen. */}
      <div className="mt-4 first:mt-0">
        <Section id="sidebar-pinned" title="Pinned">
          <ul className="grid grid-cols-2 gap-1">
            {state.direct.map((workstream) => (
              <AgentChip
                key={workstream.id}
                workstream={workstream}
                active={sidebar.currentId === workstream.id}
                index={agentIndex.get(workstream.agentId) ?? 0}
              />
            ))}
          </ul>
          {state.core.length > 0 ? (
            <ul className="mt-1 space-y-px">
              {state.core.map((workstream) => (
                <WorkstreamItem
                  key={workstream.id}
                  workstream={workstream}
                  leading={<CoreTile />}
                  {...rowProps(workstream.id)}
                />
              ))}
            </ul>
          ) : null}
        </Section>

        {activity.length > 0 ? (
          <Section id="sidebar-recent" title="Recent activity">
            <ActivityList entries={activity} now={now} />
          </Section>
        ) : null}

        <Section
          id="sidebar-groups"
          title="Workstreams"
          action={
            <Button
              variant="secondary"
              size="sm"
              aria-label="New workstream"
              className="h-6! gap-1 px-1.5! text-[12px]!"
              pending={sidebar.creating}
              onClick={() => void sidebar.create()}
            >
              {sidebar.creating ? null : <PlusIcon className="size-3.5" />}
              New
            </Button>
          }
        >
          {state.groups.length === 0 ? (
            <p className="px-2 py-1.5 text-[13px] leading-5 text-fg-subtle">
              {state.showArchived ? "No workstreams yet." : "Start one with “New workstream”."}
            </p>
          ) : (
            <ul className="space-y-px">
              {state.groups.map((workstream) => (
                <WorkstreamItem
                  key={workstream.id}
                  workstream={workstream}
                  actions={actions}
                  {...rowProps(workstream.id)}
                />
              ))}
            </ul>
          )}
          {state.hasMore ? (
            <LoadMore loading={sidebar.loadingMore} onLoad={() => void sidebar.loadMore()} />
          ) : null}
          <label className="mt-1 flex h-7 w-fit cursor-pointer items-center gap-1.5 px-2 text-[12px] text-fg-subtle hover:text-fg-muted">
            <input
              type="checkbox"
              checked={state.showArchived}
              onChange={(event) => void sidebar.toggleArchived(event.target.checked)}
              className="size-3 accent-[var(--accent)]"
            />
            Show archived
          </label>
        </Section>
      </div>

      <div className="mt-5 space-y-px border-t border-border pt-3">
        <Link
          href="/memories"
          data-sidebar-item=""
          aria-current={pathname === "/memories" ? "page" : undefined}
          className={PAGE_LINK}
        >
          <BrainIcon className="size-4 text-fg-subtle" />
          Memories
        </Link>
        <Link
          href="/skills"
          data-sidebar-item=""
          aria-current={pathname === "/skills" ? "page" : undefined}
          className={PAGE_LINK}
        >
          <ListChecksIcon className="size-4 text-fg-subtle" />
          Skills
        </Link>
        {data.canAdminister ? (
          <Link
            href="/admin"
            data-sidebar-item=""
            aria-current={pathname.startsWith("/admin") ? "page" : undefined}
            className={PAGE_LINK}
          >
            <ShieldIcon className="size-4 text-fg-subtle" />
            Admin console
          </Link>
        ) : null}
      </div>
    </div>
  );
}

/** Loads the next page when it scrolls into view; a button for keyboards and slow observers. */
function LoadMore({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  const latest = useRef(onLoad);
  useEffect(() => {
    latest.current = onLoad;
  });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { rootMargin: "160px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <button
      ref={ref}
      type="button"
      onClick={onLoad}
      disabled={loading}
      className="mt-1 flex h-8 w-full items-center justify-center gap-2 rounded-lg text-[12px] text-fg-subtle hover:bg-bg-muted hover:text-fg-muted"
    >
      {loading ? <Spinner className="size-3.5" /> : null}
      {loading ? "Loading…" : "Load more"}
    </button>
  );
}
