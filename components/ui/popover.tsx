"use client";
// A small floating panel anchored to a control, on Radix's popover: it stays on screen, closes on
// Escape or a click outside, and (non-modal) leaves focus where it is unless told otherwise.
import { Popover as PopoverPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cx } from "./class-names";

export const Popover = PopoverPrimitive.Root;
export const PopoverAnchor = PopoverPrimitive.Anchor;
export const PopoverTrigger = PopoverPrimitive.Trigger;

export function PopoverContent({
  className,
  keepFocus = false,
  ...rest
}: ComponentProps<typeof PopoverPrimitive.Content> & {
  /** Leave focus on the page (for a message that needs no answer). */
  keepFocus?: boolean;
}) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        sideOffset={6}
        collisionPadding={12}
        onOpenAutoFocus={keepFocus ? (event) => event.preventDefault() : undefined}
        className={cx(
          "z-50 w-[min(16rem,calc(100vw-1.5rem))] rounded-xl border border-border bg-bg-elevated p-3 text-[13px] text-fg shadow-elevated outline-none",
          "transition-[opacity,scale] duration-100 starting:scale-95 starting:opacity-0 motion-reduce:transition-none",
          className,
        )}
        {...rest}
      />
    </PopoverPrimitive.Portal>
  );
}
