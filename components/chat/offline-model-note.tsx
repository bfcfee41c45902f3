"use client";
// The offline model, explained where a new person first meets it: a note in the empty chat
// with a few things to try, a badge in the header, and the full trigger table in a dialog.

import { XIcon as CloseIcon, SparklesIcon as SparkIcon } from "lucide-react";
import { useRef } from "react";
import { IconButton } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";

export type OfflineTrigger = { trigger: string; effect: string };

const EXAMPLES = [
  { label: "Show some code", text: "Write a small TypeScript function that slugifies a title." },
  { label: "Use a tool", text: "What time is it? [tool:current_time]" },
  { label: "A long answer", text: "Plan our product launch. [long]" },
];

export function useTriggerDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  return { ref, open: () => ref.current?.showModal() };
}

export function OfflineModelBadge({ onOpen }: { onOpen: () => void }) {
  return (
    // On a phone the badge is its dot alone (the words stay its accessible name), so the title
    // keeps its room in the one top bar.
    <button
      type="button"
      onClick={onOpen}
      title="The offline model answers: see what steers it"
      className="inline-flex h-7 shrink-0 items-center gap-1.5 rounded-full border border-border px-2.5 text-xs font-medium text-fg-muted transition-colors hover:bg-bg-muted hover:text-fg max-sm:size-9 max-sm:justify-center max-sm:rounded-lg max-sm:border-0 max-sm:px-0"
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-amber-500 max-sm:size-2" />
      <span className="max-sm:sr-only">Offline model</span>
    </button>
  );
}

export function OfflineModelIntro({
  onTry,
  onShowTriggers,
}: {
  onTry: (text: string) => void;
  onShowTriggers: () => void;
}) {
  return (
    <aside
      aria-labelledby="offline-model-title"
      className="rounded-2xl border border-border bg-bg-subtle px-5 py-4 text-left"
    >
      <h2 id="offline-model-title" className="flex items-center gap-2 text-sm font-medium text-fg">
        <SparkIcon className="size-4 text-accent-text" />
        You're talking to the offline model
      </h2>
      <p className="mt-1.5 text-[13px] leading-5 text-fg-muted">
        No API key is set, so a built-in stand-in answers: it streams, calls tools and fails on cue,
        but it doesn't really think. Set <code className="font-mono text-xs">OPENAI_API_KEY</code>{" "}
        on the server to talk to a real model. Words in brackets steer it.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {EXAMPLES.map((example) => (
          <button
            key={example.label}
            type="button"
            onClick={() => onTry(example.text)}
            className="rounded-full border border-border bg-bg px-3 py-1 text-xs font-medium text-fg-muted transition-colors hover:border-border-strong hover:text-fg"
          >
            {example.label}
          </button>
        ))}
        <button
          type="button"
          onClick={onShowTriggers}
          className="rounded-full px-2 py-1 text-xs font-medium text-accent-text hover:underline"
        >
          See all triggers
        </button>
      </div>
    </aside>
  );
}

export function TriggerDialog({
  dialogRef,
  triggers,
}: {
  dialogRef: React.RefObject<HTMLDialogElement | null>;
  triggers: OfflineTrigger[];
}) {
  return (
    // The backdrop click is a pointer nicety; keyboards close with Escape or the Close button.
    // biome-ignore lint/a11y/useKeyWithClickEvents: see above
    <dialog
      ref={dialogRef}
      aria-labelledby="triggers-title"
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself) closes it.
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
      className={cx(
        "m-auto w-[min(36rem,calc(100vw-2rem))] rounded-2xl border border-border bg-bg-elevated p-0 text-fg shadow-elevated",
        "backdrop:bg-black/40 backdrop:backdrop-blur-[1px]",
      )}
    >
      <div className="flex items-center justify-between border-b border-border px-5 py-3">
        <h2 id="triggers-title" className="text-sm font-semibold">
          Offline model triggers
        </h2>
        <form method="dialog">
          <IconButton type="submit" label="Close" tone="muted">
            <CloseIcon className="size-4" />
          </IconButton>
        </form>
      </div>
      <div className="max-h-[70vh] overflow-y-auto px-5 py-3">
        <p className="text-[13px] text-fg-muted">
          Put any of these anywhere in a message. They combine, e.g.{" "}
          <code className="font-mono text-xs">[slow:200] [long]</code>.
        </p>
        <table className="mt-3 w-full text-left text-[13px]">
          <thead className="text-xs text-fg-subtle">
            <tr>
              <th className="pb-2 font-medium">Trigger</th>
              <th className="pb-2 font-medium">What it does</th>
            </tr>
          </thead>
          <tbody>
            {triggers.map((row) => (
              <tr key={row.trigger} className="border-t border-border align-top">
                <td className="py-2 pr-4 font-mono text-xs whitespace-nowrap text-fg">
                  {row.trigger}
                </td>
                <td className="py-2 text-fg-muted">{row.effect}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </dialog>
  );
}
