"use client";
// A confirmation in a native modal <dialog>: focus moves in and is trapped, Escape cancels, and
// focus returns to where it was. The confirm button shows progress and the dialog shows errors.
import { type ReactNode, useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";

export type ConfirmRequest = {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  tone?: "danger" | "default";
  onConfirm: () => Promise<void>;
};

export function ConfirmDialog({
  request,
  pending,
  error,
  onCancel,
  onConfirm,
}: {
  request: ConfirmRequest | null;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (request && !dialog.open) dialog.showModal();
    if (!request && dialog.open) dialog.close();
  }, [request]);

  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        event.preventDefault();
        if (!pending) onCancel();
      }}
      className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-2xl border border-border bg-bg-elevated p-5 text-fg shadow-elevated backdrop:bg-black/40"
    >
      {request ? (
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
            onConfirm();
          }}
        >
          <h2 id="confirm-title" className="text-base font-semibold tracking-tight">
            {request.title}
          </h2>
          <div className="mt-2 text-sm leading-6 text-fg-muted">{request.body}</div>
          {error ? (
            <p role="alert" className="mt-3 text-[13px] text-danger">
              {error}
            </p>
          ) : null}
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="secondary" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
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
    </dialog>
  );
}
