"use client";
// A panel that slides in from the left edge, on Radix's dialog: modal (the rest of the page is
// hidden from assistive technology and unreachable by pointer or Tab), Escape and the backdrop
// close it, and focus returns to the button that opened it. Callers load this
// module when first opening it (it is not needed before).
import { Dialog } from "radix-ui";
import type { ReactNode, RefObject } from "react";
import { cx } from "./class-names";

export function Sheet({
  open,
  onOpenChange,
  id,
  title,
  initialFocus,
  returnFocus,
  className,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  id?: string;
  /** The sheet's accessible name, read out but not shown. */
  title: string;
  /** Where focus goes on opening (Radix picks the first focusable element otherwise). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Where focus goes back to on closing: the button that opened it. */
  returnFocus: RefObject<HTMLElement | null>;
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
          className={cx(
            "fixed inset-y-0 left-0 z-50 flex w-[min(18rem,85vw)] flex-col border-r border-border bg-bg-subtle shadow-elevated outline-none",
            "transition-[translate] duration-200 ease-out starting:-translate-x-full motion-reduce:transition-none",
            className,
          )}
        >
          <Dialog.Title className="sr-only">{title}</Dialog.Title>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
