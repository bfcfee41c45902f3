"use client";
// A confirmation before an action that loses something (archive, delete, remove, stop): a modal
// alert dialog that names the action, says what follows, shows progress and errors, and stays
// open until the action has succeeded. Its code loads the first time one is asked for, not with
// the page (see ./confirm-dialog-impl).
import { lazy, type ReactNode, Suspense, useCallback, useState } from "react";
import { ApiError } from "@/lib/api-client/call-api";
import type { ConfirmDialogProps } from "./confirm-dialog-impl";

export type ConfirmRequest = {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  tone?: "danger" | "default";
  onConfirm: () => Promise<void>;
  /** Where focus goes on closing when the element that asked is gone (say, a deleted row's). */
  fallbackFocus?: () => HTMLElement | null;
};

const ConfirmDialogImpl = lazy(() =>
  import("./confirm-dialog-impl").then((module) => ({ default: module.ConfirmDialogImpl })),
);

export function ConfirmDialog(props: ConfirmDialogProps) {
  // Once used, it stays mounted so that closing hands focus back like any dialog.
  const [used, setUsed] = useState(false);
  if (props.request && !used) setUsed(true);
  if (!used && !props.request) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialogImpl {...props} />
    </Suspense>
  );
}

/**
 * One page's confirmation: `ask` opens the dialog, Confirm runs the action, and the dialog stays
 * open with the failure's sentence until the action succeeds or the person cancels. Spread
 * `dialog` onto <ConfirmDialog>.
 */
export function useConfirm(): {
  ask: (request: ConfirmRequest) => void;
  dialog: ConfirmDialogProps;
} {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ask = useCallback((next: ConfirmRequest) => {
    setError(null);
    setRequest(next);
  }, []);
  const onConfirm = () => {
    if (!request) return;
    setPending(true);
    request
      .onConfirm()
      .then(
        () => setRequest(null),
        (failure: unknown) =>
          setError(failure instanceof ApiError ? failure.message : "That didn't work. Try again."),
      )
      .finally(() => setPending(false));
  };
  return { ask, dialog: { request, pending, error, onCancel: () => setRequest(null), onConfirm } };
}
