"use client";
// Copies text to the clipboard and says so for a moment.

import { CheckIcon as CheckSmallIcon, CopyIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { cx } from "@/components/ui/class-names";

export function CopyButton({
  text,
  label = "Copy",
  className,
}: {
  text: string;
  label?: string;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1_500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      (error: unknown) => console.warn("[chat] copying failed:", error),
    );
  };

  return (
    <button
      type="button"
      onClick={copy}
      aria-label={copied ? "Copied" : label}
      title={copied ? "Copied" : label}
      className={cx(
        "flex size-7 items-center justify-center rounded-md text-fg-subtle transition-colors hover:bg-bg-muted hover:text-fg",
        className,
      )}
    >
      {copied ? <CheckSmallIcon className="size-3.5" /> : <CopyIcon className="size-3.5" />}
    </button>
  );
}
