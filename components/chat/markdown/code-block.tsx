"use client";
// A fenced code block: language label, Copy, and the code. It renders as plain monospace at
// once; once the block is complete and on screen, highlighting loads with import() and
// replaces it.
import { type RefObject, useEffect, useRef, useState } from "react";
import { cx } from "@/components/ui/class-names";
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
  const scrollerRef = useRef<HTMLDivElement>(null);
  const more = useMoreToTheRight(scrollerRef, html ?? code);
  return (
    <div
      ref={ref}
      className="group/code my-4 overflow-hidden rounded-xl border border-border bg-bg-subtle first:mt-0 last:mb-0"
    >
      <div className="flex h-9 items-center justify-between border-b border-border pr-1.5 pl-3.5">
        <span className="font-mono text-xs text-fg-subtle">{label}</span>
        <CopyButton text={code} label="Copy code" />
      </div>
      <div className="relative">
        <div
          ref={scrollerRef}
          className="overflow-x-auto"
          // Scrollable by keyboard too, when the code is wider than the column.
          tabIndex={more ? 0 : undefined}
        >
          {html ? (
            <div
              className="text-[13px] leading-relaxed [&_code]:font-mono [&_pre]:!bg-transparent [&_pre]:px-4 [&_pre]:py-3 [&_pre]:outline-none [&_span]:text-(--shiki-light) dark:[&_span]:text-(--shiki-dark)"
              // Shiki escapes the code; the markup is only its own spans.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: highlighted by shiki, see above
              dangerouslySetInnerHTML={{ __html: html }}
            />
          ) : (
            <pre className="px-4 py-3 text-[13px] leading-relaxed">
              <code className="font-mono text-fg">{code}</code>
            </pre>
          )}
        </div>
        {/* The scroll cue: lines run on past the right edge (touch screens show no scrollbar). */}
        <div
          aria-hidden="true"
          data-scroll-cue=""
          className={cx(
            "pointer-events-none absolute inset-y-0 right-0 w-10 bg-linear-to-l from-bg-subtle to-transparent transition-opacity duration-150",
            more ? "opacity-100" : "opacity-0",
          )}
        />
      </div>
    </div>
  );
}

/** Whether the element's content runs on past its right edge (and is not scrolled to the end). */
function useMoreToTheRight(ref: RefObject<HTMLElement | null>, content: string): boolean {
  const [more, setMore] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure when the content changes
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () =>
      setMore(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    element.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener("scroll", measure);
    };
  }, [ref, content]);
  return more;
}
