"use client";
// A fenced code block: language label, Copy, and the code. It renders as plain monospace at
// once; once the block is complete and on screen, highlighting loads with import() and
// replaces it.
import { useEffect, useRef, useState } from "react";
import { CopyButton } from "../copy-button";

type Highlighted = { code: string; html: string };

export function CodeBlock({
  code,
  language,
  complete,
}: {
  code: string;
  language: string | undefined;
  /** False while the block is still streaming in: highlighting waits for the end. */
  complete: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [highlighted, setHighlighted] = useState<Highlighted | null>(null);
  const label = (language ?? "").trim().split(/\s+/)[0] || "text";

  useEffect(() => {
    const element = ref.current;
    if (!complete || !element) return;
    let cancelled = false;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        import("./highlight")
          .then(({ highlightCode }) => highlightCode(code, language))
          .then((html) => {
            if (!cancelled && html) setHighlighted({ code, html });
          })
          .catch((error: unknown) => {
            console.warn("[chat] code highlighting failed; showing plain code.", error);
          });
      },
      { rootMargin: "200px" },
    );
    observer.observe(element);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [code, language, complete]);

  const html = highlighted?.code === code ? highlighted.html : null;
  return (
    <div
      ref={ref}
      className="group/code my-4 overflow-hidden rounded-xl border border-border bg-bg-subtle first:mt-0 last:mb-0"
    >
      <div className="flex h-9 items-center justify-between border-b border-border pr-1.5 pl-3.5">
        <span className="font-mono text-xs text-fg-subtle">{label}</span>
        <CopyButton text={code} label="Copy code" />
      </div>
      {html ? (
        <div
          className="overflow-x-auto text-[13px] leading-relaxed [&_code]:font-mono [&_pre]:!bg-transparent [&_pre]:px-4 [&_pre]:py-3 [&_pre]:outline-none [&_span]:text-(--shiki-light) dark:[&_span]:text-(--shiki-dark)"
          // Shiki escapes the code; the markup is only its own spans.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: highlighted by shiki, see above
          dangerouslySetInnerHTML={{ __html: html }}
        />
      ) : (
        <pre className="overflow-x-auto px-4 py-3 text-[13px] leading-relaxed">
          <code className="font-mono text-fg">{code}</code>
        </pre>
      )}
    </div>
  );
}
