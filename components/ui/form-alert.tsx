// The live region a form reports errors in. It is always in the page (empty when there is no
// error) so screen readers announce the message the moment it appears.
import type { ReactNode } from "react";
import { cx } from "./class-names";

export function FormAlert({ children, className }: { children?: ReactNode; className?: string }) {
  const hasMessage = children !== undefined && children !== null && children !== false;
  return (
    <div
      role="alert"
      className={cx(
        hasMessage &&
          "flex items-start gap-2 rounded-lg border border-danger-border bg-danger-subtle px-3 py-2.5 text-[13px] leading-5 text-danger",
        className,
      )}
    >
      {hasMessage ? (
        <>
          <svg
            aria-hidden="true"
            viewBox="0 0 16 16"
            className="mt-0.5 size-4 shrink-0"
            fill="none"
          >
            <circle cx="8" cy="8" r="6.25" stroke="currentColor" strokeWidth="1.5" />
            <path d="M8 4.75v3.75" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
            <circle cx="8" cy="11" r="0.9" fill="currentColor" />
          </svg>
          <div>{children}</div>
        </>
      ) : null}
    </div>
  );
}
