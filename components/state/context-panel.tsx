"use client";
// Where the workstream's context shows: from 1024px a column beside the chat (an <aside>, open
// or closed as this browser last left it), below that a sheet from the right edge (a modal
// dialog) opened by the same header button. The content's code loads when first shown; on a
// phone the sheet's with it.
import { PanelRightIcon } from "lucide-react";
import { lazy, type RefObject, Suspense, useRef, useState } from "react";
import { cx } from "@/components/ui/class-names";
import { useMediaQuery } from "@/components/ui/use-media-query";
import type { ContextPanelBodyProps } from "./context-panel-body";
import { ContextPanelPlaceholder } from "./context-placeholder";
import { rememberPanelOpen } from "./panel-preference";

export const CONTEXT_PANEL_TITLE = "Workstream context";
const PANEL_ID = "workstream-context";
const SHEET_ID = "workstream-context-sheet";
const DESKTOP_QUERY = "(min-width: 1024px)";

const ContextPanelBody = lazy(() =>
  import("./context-panel-body").then((module) => ({ default: module.ContextPanelBody })),
);
const loadSheet = () => import("./context-sheet");
const ContextSheet = lazy(() => loadSheet().then((module) => ({ default: module.ContextSheet })));

export type ContextPanelState = {
  desktop: boolean;
  /** The column's state (from 1024px). */
  open: boolean;
  /** The sheet's state (below 1024px). */
  sheetOpen: boolean;
  setSheetOpen: (open: boolean) => void;
  /** Whether the context is on screen, in the column or the sheet. */
  shown: boolean;
  /** The sheet was opened at least once (it then stays mounted to hand focus back). */
  sheetUsed: boolean;
  toggle: () => void;
  toggleRef: RefObject<HTMLButtonElement | null>;
};

export function useContextPanel(initiallyOpen: boolean): ContextPanelState {
  // The server renders the column (CSS hides it on phones), which phones then drop.
  const desktop = useMediaQuery(DESKTOP_QUERY, true);
  const [open, setOpen] = useState(initiallyOpen);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [sheetUsed, setSheetUsed] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // Growing past the breakpoint closes the sheet: the column takes over.
  if (desktop && sheetOpen) setSheetOpen(false);
  if (sheetOpen && !sheetUsed) setSheetUsed(true);
  const toggle = () => {
    if (!desktop) {
      setSheetOpen(!sheetOpen);
      return;
    }
    setOpen(!open);
    rememberPanelOpen(!open);
  };
  return {
    desktop,
    open,
    sheetOpen,
    setSheetOpen,
    shown: desktop ? open : sheetOpen,
    sheetUsed,
    toggle,
    toggleRef,
  };
}

/** The chat header's button that shows and hides the context. */
export function ContextToggle({ panel }: { panel: ContextPanelState }) {
  const expanded = panel.desktop ? panel.open : panel.sheetOpen;
  return (
    <button
      ref={panel.toggleRef}
      type="button"
      aria-label={CONTEXT_PANEL_TITLE}
      aria-expanded={expanded}
      aria-controls={panel.desktop ? PANEL_ID : panel.sheetOpen ? SHEET_ID : undefined}
      aria-haspopup={panel.desktop ? undefined : "dialog"}
      title={expanded ? "Hide the workstream context" : "Show the workstream context"}
      onClick={panel.toggle}
      // Pointing at the button on a phone starts loading the sheet's code.
      onPointerEnter={panel.desktop ? undefined : () => void loadSheet()}
      onFocus={panel.desktop ? undefined : () => void loadSheet()}
      className={cx(
        "flex size-9 shrink-0 items-center justify-center rounded-lg transition-colors",
        expanded
          ? "bg-accent-subtle text-accent-text hover:bg-accent-subtle/80"
          : "text-fg-muted hover:bg-bg-muted hover:text-fg",
      )}
    >
      <PanelRightIcon className="size-[18px]" />
    </button>
  );
}

export function ContextPanel({
  panel,
  body,
}: {
  panel: ContextPanelState;
  body: ContextPanelBodyProps;
}) {
  if (!panel.desktop) {
    // Mounted from the first opening on, so that closing hands focus back to the button.
    return panel.sheetOpen || panel.sheetUsed ? (
      <Suspense fallback={null}>
        <ContextSheet
          id={SHEET_ID}
          open={panel.sheetOpen}
          onOpenChange={panel.setSheetOpen}
          returnFocus={panel.toggleRef}
          body={body}
        />
      </Suspense>
    ) : null;
  }
  return (
    <aside
      id={PANEL_ID}
      aria-labelledby={`${PANEL_ID}-title`}
      hidden={!panel.open}
      className="flex w-72 shrink-0 flex-col border-l border-border bg-bg-subtle max-lg:hidden xl:w-80"
    >
      <div className="flex h-14 shrink-0 items-center border-b border-border px-4">
        <h2 id={`${PANEL_ID}-title`} className="text-sm font-semibold text-fg">
          {CONTEXT_PANEL_TITLE}
        </h2>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
        {panel.open ? (
          <Suspense fallback={<ContextPanelPlaceholder />}>
            <ContextPanelBody {...body} />
          </Suspense>
        ) : null}
      </div>
    </aside>
  );
}
