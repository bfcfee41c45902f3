"use client";
// The context panel on a phone: a sheet from the right edge (a modal dialog) with the same
// content as the column. Escape closes it, except while an edit form inside has focus: there
// Escape cancels the edit first.
import { XIcon as CloseIcon } from "lucide-react";
import { type RefObject, useRef } from "react";
import { IconButton } from "@/components/ui/button";
import { Sheet, SheetTitle } from "@/components/ui/sheet";
import { CONTEXT_PANEL_TITLE } from "./context-panel";
import { ContextPanelBody, type ContextPanelBodyProps } from "./context-panel-body";

export function ContextSheet({
  id,
  open,
  onOpenChange,
  returnFocus,
  body,
}: {
  id: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocus: RefObject<HTMLElement | null>;
  body: ContextPanelBodyProps;
}) {
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Sheet
      open={open}
      onOpenChange={onOpenChange}
      id={id}
      side="right"
      initialFocus={closeRef}
      returnFocus={returnFocus}
      onEscapeKeyDown={(event) => {
        if (event.target instanceof Element && event.target.closest("[data-escape-cancels]")) {
          event.preventDefault();
        }
      }}
      className="w-[min(26rem,92vw)]"
    >
      <div className="flex h-14 shrink-0 items-center justify-between border-b border-border pr-2 pl-4">
        <SheetTitle className="text-sm font-semibold text-fg">{CONTEXT_PANEL_TITLE}</SheetTitle>
        <IconButton
          ref={closeRef}
          label="Close"
          onClick={() => onOpenChange(false)}
          size="md"
          tone="muted"
        >
          <CloseIcon className="size-[18px]" />
        </IconButton>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
        <ContextPanelBody {...body} />
      </div>
    </Sheet>
  );
}
