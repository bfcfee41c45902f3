"use client";
// A panel that slides in from the left or right edge, on Radix's dialog: modal (the rest of the
// page is hidden from assistive technology and unreachable by pointer or Tab), Escape and the
// backdrop close it, and focus returns to the button that opened it. Callers load this
// module when first opening it (it is not needed before).
import { Dialog } from "radix-ui";
import type { ComponentProps, ReactNode, RefObject } from "react";
import { cx } from "./class-names";

export function Sheet({
  open,
  onOpenChange,
  id,
  title,
  side = "left",
  initialFocus,
  returnFocus,
  onEscapeKeyDown,
  className,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  id?: string;
  /**
   * The sheet's accessible name, read out but not shown. Leave it out to show a title instead:
   * then the children must hold a <SheetTitle>.
   */
  title?: string;
  side?: "left" | "right";
  /** Where focus goes on opening (Radix picks the first focusable element otherwise). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Where focus goes back to on closing: the button that opened it. */
  returnFocus: RefObject<HTMLElement | null>;
  /** Escape closes the sheet unless this prevents it (a form inside uses Escape itself). */
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40 backdrop-blur-[1px] transition-opacity duration-200 starting:opacity-0 motion-reduce:transition-none" />
        <Dialog.Content
          id={id}
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            // Radix returns focus to its own trigger; the opener here is a plain button.
            event.preventDefault();
            returnFocus.current?.focus();
          }}
          onOpenAutoFocus={(event) => {
            if (!initialFocus?.current) return;
            event.preventDefault();
            initialFocus.current.focus();
          }}
          onEscapeKeyDown={onEscapeKeyDown}
          className={cx(
            "fixed inset-y-0 z-50 flex w-[min(18rem,85vw)] flex-col bg-bg-subtle shadow-elevated outline-none",
            "transition-[translate] duration-200 ease-out motion-reduce:transition-none",
            side === "left"
              ? "left-0 border-r border-border starting:-translate-x-full"
              : "right-0 border-l border-border starting:translate-x-full",
            className,
          )}
        >
          {title ? <Dialog.Title className="sr-only">{title}</Dialog.Title> : null}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A sheet's visible title, which names it (see Sheet's `title`). */
export function SheetTitle(props: ComponentProps<typeof Dialog.Title>) {
  return <Dialog.Title {...props} />;
}
