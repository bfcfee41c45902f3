"use client";
// A short label for an icon-only control, on Radix's tooltip: shown on hover and on keyboard
// focus, hidden with Escape, and tied to the control by aria-describedby. Touch devices do not
// show it, so the control's accessible name must not depend on it.
import { Tooltip as TooltipPrimitive } from "radix-ui";
import type { ReactNode } from "react";

export function Tooltip({
  label,
  side = "bottom",
  children,
}: {
  label: ReactNode;
  side?: "top" | "bottom" | "left" | "right";
  /** The control; it must forward its ref and props (a button element or a Radix trigger). */
  children: ReactNode;
}) {
  return (
    <TooltipPrimitive.Provider delayDuration={400} skipDelayDuration={200}>
      <TooltipPrimitive.Root>
        <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content
            side={side}
            sideOffset={6}
            collisionPadding={8}
            className="z-[60] rounded-md bg-fg px-2 py-1 text-[12px] font-medium text-bg shadow-elevated transition-opacity duration-100 starting:opacity-0 motion-reduce:transition-none"
          >
            {label}
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipPrimitive.Provider>
  );
}
