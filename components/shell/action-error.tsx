"use client";
// An error from a header menu's action (sign out, switch organization), shown in a popover under
// the menu's trigger: announced, kept on screen, and dismissed with Escape or a click elsewhere.
// The popover's code loads only when an error happens.
import { lazy, type ReactNode, Suspense, useRef } from "react";

const ActionErrorPopover = lazy(() =>
  import("./action-error-popover").then((module) => ({ default: module.ActionErrorPopover })),
);

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
  const anchorRef = useRef<HTMLDivElement>(null);
  return (
    <div ref={anchorRef} className="min-w-0">
      {children}
      {error ? (
        // While the popover loads, the error is still announced.
        <Suspense
          fallback={
            <p role="alert" className="sr-only">
              {error}
            </p>
          }
        >
          <ActionErrorPopover
            anchorRef={anchorRef}
            error={error}
            onDismiss={onDismiss}
            align={align}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
