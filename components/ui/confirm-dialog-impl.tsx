"use client";
// The confirmation's implementation, loaded by ./confirm-dialog when first needed: Radix's alert dialog: modal, focus moves in (to Cancel, the safe choice) and
// stays there, Escape cancels, and focus returns to where it was. The confirm button shows
// progress and the dialog shows errors; it stays open until the action has succeeded.
import { AlertDialog } from "radix-ui";
import { useLayoutEffect, useRef } from "react";
import { Button } from "./button";
import { cx } from "./class-names";
import type { ConfirmRequest } from "./confirm-dialog";

export type ConfirmDialogProps = {
  request: ConfirmRequest | null;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
};

export function ConfirmDialogImpl({
  request,
  pending,
  error,
  onCancel,
  onConfirm,
}: ConfirmDialogProps) {
  // Whatever had focus when the confirmation was asked for (a menu's button, say) gets it back;
  // recorded before the dialog moves focus inside (layout effects run before that).
  const opener = useRef<HTMLElement | null>(null);
  const fallback = useRef<ConfirmRequest["fallbackFocus"]>(undefined);
  const open = request !== null;
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement) {
      opener.current = document.activeElement;
    }
  }, [open]);
  useLayoutEffect(() => {
    if (request) fallback.current = request.fallbackFocus;
  }, [request]);
  return (
    <AlertDialog.Root
      open={request !== null}
      onOpenChange={(open) => {
        if (!open && !pending) onCancel();
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/40 transition-opacity duration-150 starting:opacity-0 motion-reduce:transition-none" />
        <AlertDialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            const target = opener.current?.isConnected ? opener.current : fallback.current?.();
            target?.focus();
          }}
          onEscapeKeyDown={(event) => {
            if (pending) event.preventDefault();
          }}
          className="fixed top-1/2 left-1/2 z-50 w-[min(24rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-border bg-bg-elevated p-5 text-fg shadow-elevated outline-none transition-[opacity,scale] duration-150 starting:scale-95 starting:opacity-0 motion-reduce:transition-none"
        >
          {request ? (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                onConfirm();
              }}
            >
              <AlertDialog.Title className="text-base font-semibold tracking-tight">
                {request.title}
              </AlertDialog.Title>
              <AlertDialog.Description asChild>
                <div className="mt-2 text-sm leading-6 text-fg-muted">{request.body}</div>
              </AlertDialog.Description>
              {error ? (
                <p role="alert" className="mt-3 text-[13px] text-danger">
                  {error}
                </p>
              ) : null}
              <div className="mt-5 flex justify-end gap-2">
                <AlertDialog.Cancel asChild>
                  <Button variant="secondary" disabled={pending}>
                    Cancel
                  </Button>
                </AlertDialog.Cancel>
                <Button
                  type="submit"
                  pending={pending}
                  className={cx(
                    request.tone === "danger" &&
                      "bg-danger! text-white! hover:bg-danger/90! dark:text-black!",
                  )}
                >
                  {request.confirmLabel}
                </Button>
              </div>
            </form>
          ) : null}
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
