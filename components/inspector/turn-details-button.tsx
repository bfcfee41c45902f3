"use client";
// The "Details" affordance under an answer: opens its turn in the inspector. The inspector's code
// loads the first time it is opened, so the chat page does not carry it.
import { ActivityIcon } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { cx } from "@/components/ui/class-names";

const InspectorSheet = lazy(() =>
  import("./inspector-sheet").then((module) => ({ default: module.InspectorSheet })),
);

export function TurnDetailsButton({
  url,
  label = "Details",
  className,
}: {
  /** The inspector's API address for this turn. */
  url: string;
  label?: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
        aria-haspopup="dialog"
        className={cx(
          "flex h-7 items-center gap-1 rounded-md px-1.5 text-xs text-fg-subtle transition-colors hover:bg-bg-muted hover:text-fg",
          className,
        )}
        data-testid="turn-details"
      >
        <ActivityIcon className="size-3.5" aria-hidden="true" />
        {label}
      </button>
      {used ? (
        <Suspense fallback={null}>
          <InspectorSheet open={open} onOpenChange={setOpen} url={url} returnFocus={button} />
        </Suspense>
      ) : null}
    </>
  );
}
