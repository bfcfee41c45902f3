// While the chat loads: the page's frame with quiet placeholders, no layout jump after. The
// context column is there when this browser left it open (see the chat page).
import { cookies } from "next/headers";
import { ContextPanelPlaceholder } from "@/components/state/context-placeholder";
import { CONTEXT_PANEL_COOKIE, panelOpenFromCookie } from "@/components/state/panel-preference";

export default async function Loading() {
  const panelOpen = panelOpenFromCookie((await cookies()).get(CONTEXT_PANEL_COOKIE)?.value);
  return (
    <div className="flex h-full min-h-0" aria-busy="true">
      <div className="flex min-w-0 flex-1 flex-col">
        {/* The chat header's own edges, so nothing jumps when the page arrives. */}
        <div className="flex h-14 shrink-0 items-center gap-2 border-b border-border px-4 max-md:pr-14 max-md:pl-13 sm:gap-3 md:px-6">
          <span className="size-6 animate-pulse rounded-md bg-bg-muted max-sm:hidden" />
          <span className="h-3.5 w-28 animate-pulse rounded bg-bg-muted" />
        </div>
        <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-end gap-6 px-4 pb-6 sm:px-6">
          <span className="ml-auto h-10 w-2/5 animate-pulse rounded-2xl bg-bg-muted" />
          <span className="h-24 w-4/5 animate-pulse rounded-xl bg-bg-muted/70" />
          <span className="sr-only">Loading the conversation…</span>
        </div>
        <div className="mx-auto w-full max-w-3xl shrink-0 px-4 pt-1 pb-3 sm:px-6 sm:pb-4">
          <div className="h-[5.25rem] rounded-2xl border border-border bg-bg-elevated" />
        </div>
      </div>
      {panelOpen ? (
        <div className="flex w-72 shrink-0 flex-col border-l border-border bg-bg-subtle max-lg:hidden xl:w-80">
          <div className="h-14 shrink-0 border-b border-border" />
          <ContextPanelPlaceholder />
        </div>
      ) : null}
    </div>
  );
}
