"use client";
// The turn inspector in a sheet from the right edge, wide enough for its timeline. Loaded the
// first time someone opens a turn, not with the chat page (see ./turn-details-button).
import { XIcon } from "lucide-react";
import type { RefObject } from "react";
import { IconButton } from "@/components/ui/button";
import { Sheet, SheetTitle } from "@/components/ui/sheet";
import { TurnInspector } from "./turn-inspector";

export function InspectorSheet({
  open,
  onOpenChange,
  url,
  title = "Turn details",
  returnFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  url: string;
  title?: string;
  returnFocus: RefObject<HTMLElement | null>;
}) {
  return (
    <Sheet
      open={open}
      onOpenChange={onOpenChange}
      side="right"
      returnFocus={returnFocus}
      className="w-[min(34rem,100vw)]! bg-bg!"
    >
      <div className="flex items-center justify-between border-b border-border px-4 py-3">
        <SheetTitle className="text-base font-semibold text-fg">{title}</SheetTitle>
        <IconButton label="Close" onClick={() => onOpenChange(false)}>
          <XIcon className="size-4" />
        </IconButton>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {open ? <TurnInspector url={url} /> : null}
      </div>
    </Sheet>
  );
}
