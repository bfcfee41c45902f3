"use client";
// Transient notices for errors that are not the turn's own (a failed send, stop or page load):
// the turn's failure has its place in the status line, with Retry.

import { CircleAlertIcon as AlertIcon, XIcon as CloseIcon } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";

export type Toast = { id: number; message: string; tone: "error" | "info" };

export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);
  const push = useCallback((message: string, tone: Toast["tone"] = "error") => {
    const id = nextId.current++;
    // The same message twice in a row is shown once.
    setToasts((current) =>
      current.some((toast) => toast.message === message)
        ? current
        : [...current.slice(-2), { id, message, tone }],
    );
  }, []);
  return { toasts, push, dismiss };
}

export function Toasts({
  toasts,
  onDismiss,
}: {
  toasts: Toast[];
  onDismiss: (id: number) => void;
}) {
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-3 top-16 z-30 flex flex-col items-center gap-2 sm:inset-x-auto sm:right-4 sm:items-end"
    >
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />
      ))}
    </section>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), 7_000);
    return () => clearTimeout(timer);
  }, [toast.id, onDismiss]);
  return (
    <div
      role={toast.tone === "error" ? "alert" : "status"}
      className="pointer-events-auto flex w-full max-w-sm items-start gap-2.5 rounded-xl border border-border bg-bg-elevated py-2.5 pr-2 pl-3 text-sm text-fg shadow-elevated transition-[opacity,translate] duration-200 starting:-translate-y-1 starting:opacity-0"
    >
      {toast.tone === "error" ? <AlertIcon className="mt-0.5 size-4 shrink-0 text-danger" /> : null}
      <p className="min-w-0 flex-1 leading-5">{toast.message}</p>
      <button
        type="button"
        aria-label="Dismiss"
        onClick={() => onDismiss(toast.id)}
        className="flex size-6 shrink-0 items-center justify-center rounded-md text-fg-subtle hover:bg-bg-muted hover:text-fg"
      >
        <CloseIcon className="size-3.5" />
      </button>
    </div>
  );
}
