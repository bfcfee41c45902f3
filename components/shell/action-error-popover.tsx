"use client";
// The popover of ./action-error, loaded when an error first needs showing.
import { type RefObject, useMemo } from "react";
import { Popover, PopoverAnchor, PopoverContent } from "@/components/ui/popover";

export function ActionErrorPopover({
  anchorRef,
  error,
  onDismiss,
  align,
}: {
  anchorRef: RefObject<HTMLElement | null>;
  error: string;
  onDismiss: () => void;
  align: "start" | "end";
}) {
  // Anchored to the menu without wrapping it, so the menu's elements are left alone.
  const virtualRef = useMemo(
    () => ({
      current: {
        getBoundingClientRect: () => anchorRef.current?.getBoundingClientRect() ?? new DOMRect(),
      },
    }),
    [anchorRef],
  );
  return (
    <Popover
      open
      onOpenChange={(open) => {
        if (!open) onDismiss();
      }}
    >
      <PopoverAnchor virtualRef={virtualRef} />
      <PopoverContent
        align={align}
        keepFocus
        role="alert"
        className="border-danger-border bg-danger-subtle text-danger"
      >
        {error}
      </PopoverContent>
    </Popover>
  );
}
