"use client";
// An error from a header menu's action (sign out, switch organization), shown in a popover under
// the menu's trigger: announced, kept on screen, and dismissed with Escape or a click elsewhere.
import type { ReactNode } from "react";
import { Popover, PopoverAnchor, PopoverContent } from "@/components/ui/popover";

export function ActionError({
  error,
  onDismiss,
  align,
  children,
}: {
  error: string | null;
  onDismiss: () => void;
  align: "start" | "end";
  /** The menu the error belongs to; the popover points at it. */
  children: ReactNode;
}) {
  return (
    <Popover
      open={error !== null}
      onOpenChange={(open) => {
        if (!open) onDismiss();
      }}
    >
      <PopoverAnchor asChild>
        <div className="min-w-0">{children}</div>
      </PopoverAnchor>
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
