// The body of the not-found and error pages: a code, a plain sentence and a way back.
import type { ReactNode } from "react";

export function StatusMessage({
  code,
  title,
  description,
  actions,
}: {
  code: string;
  title: string;
  description: ReactNode;
  actions: ReactNode;
}) {
  return (
    <div className="mx-auto flex w-full max-w-md flex-col items-center px-6 py-20 text-center sm:py-28">
      <p className="rounded-full border border-border bg-bg-subtle px-2.5 py-0.5 font-mono text-xs text-fg-subtle">
        {code}
      </p>
      <h1 className="mt-5 text-2xl font-semibold tracking-tight text-fg">{title}</h1>
      <p className="mt-2 text-sm leading-6 text-fg-muted">{description}</p>
      <div className="mt-7 flex flex-wrap items-center justify-center gap-2">{actions}</div>
    </div>
  );
}
